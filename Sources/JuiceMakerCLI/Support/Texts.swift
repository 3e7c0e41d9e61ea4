import JuiceMakerKit
import JuiceMakerPostgres

/// The user's language, with the shop's names and messages made safe for a terminal.
struct Texts: Sendable {
  /// The localizer of the chosen language.
  let localizer: Localizer

  /// A string of the catalog, escaped for a terminal.
  func string(_ key: String, _ arguments: LocalizedArgument...) -> String {
    Self.shown(localizer.string(key, arguments: arguments))
  }

  /// A fruit's name, escaped for a terminal.
  func name(of fruit: Fruit.ID, count: Int? = nil) -> String {
    Self.shown(localizer.name(of: fruit, count: count))
  }

  /// A juice's name, escaped for a terminal.
  func name(of juice: Juice.ID) -> String {
    Self.shown(localizer.name(of: juice))
  }

  /// The out-of-stock message with every missing fruit.
  func shortageMessage(_ shortages: [Shortage]) -> String {
    Self.shown(localizer.message(for: shortages))
  }

  /// The message for juice served.
  func orderMessage(_ order: Order) -> String {
    Self.shown(localizer.message(for: order))
  }

  /// An amount of money as the language writes it: `₩4,500`, `$4.50`.
  func price(_ money: Money) -> String {
    money.formatted(language: localizer.language)
  }

  /// The receipt of juice served: the message, and what it costs when the juice has a
  /// price, "딸기주스 2잔 나왔어요. 합계 ₩9,000".
  func receipt(_ order: Order, price: Money?) -> String {
    guard let total = price?.times(order.count) else { return orderMessage(order) }
    return orderMessage(order) + " " + string("order.total", .string(self.price(total)))
  }

  /// The longest input echoed back in a message, in characters.
  static let longestShownInput = 80

  /// Text from a pack, catalog or the command line as it may be printed: any PostgreSQL
  /// URI in it redacted (a store address is never shown with its password, whichever
  /// message quotes it), control characters escaped (no terminal escape injection) and
  /// very long text cut short, saying how long it was in the user's language.
  func shown(_ text: String) -> String {
    let escaped = ConnectionURI.redactingURIs(in: text).escapingControlCharacters()
    guard escaped.count > Self.longestShownInput * 4 else { return escaped }
    return localizer.string(
      "text.cut", .string(String(escaped.prefix(Self.longestShownInput))), .int(text.utf8.count))
  }

  /// Text as ``shown(_:)`` prints it, for when no catalog could be loaded: cut short with
  /// an ellipsis alone.
  static func shown(_ text: String) -> String {
    let escaped = ConnectionURI.redactingURIs(in: text).escapingControlCharacters()
    guard escaped.count > longestShownInput * 4 else { return escaped }
    return escaped.prefix(longestShownInput) + "…"
  }
}
