import JuiceMakerKit

/// `juice-maker order JUICE [--count N] [--request-id ID]`: makes juice, all or nothing,
/// once per request id.
struct OrderCommand: Command {
  static let countOption = Option.number("count", .positive)
  static let requestIDOption = Option<RequestID>(
    spec: OptionSpec(name: "request-id", metavariable: "ID"),
    convert: { text throws(CLIError) in
      do {
        return try RequestID(validating: text)
      } catch {
        throw .invalidRequestID(text)
      }
    })
  static let definition = CommandDefinition(
    name: "order", options: [countOption.spec, requestIDOption.spec],
    arguments: [ArgumentSpec(name: "JUICE", completion: .juice)], showsOneLanguage: true,
    showsGivenJuicesOnly: true, loadsMenu: true)

  let context: Context
  /// The juice as given: an id or a name.
  let juiceName: String
  /// How many to make at once.
  let count: Int
  /// The request's id, so a retried order is made once.
  let requestID: RequestID?

  var changesStore: Bool { true }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    juiceName = line.arguments[0]
    count = try line.value(Self.countOption) ?? 1
    requestID = try line.value(Self.requestIDOption)
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try self.context.openShop()
    let (context, catalog, store) = (opened.context, opened.menu.catalog, opened.store)
    let juice = try NameIndex.juice(
      named: juiceName, in: catalog, strings: context.stringsInEveryLanguage)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    // A generated id too, so a lost reply can be settled by sending the order again
    // with the id the message names.
    let requestID = self.requestID ?? .random()
    let order = try shop.serve(juice, count: count, requestID: requestID)
    // Only the name of the juice as given was loaded; one found by another spelling
    // needs its own.
    let texts = juice.id.rawValue == juiceName ? context.texts : try Self.everyName(context)
    if context.json {
      context.emit(
        OrderDocument(
          juice: juice.id.rawValue, name: texts.localizer.name(of: juice.id), count: count,
          shop: shop.name, requestID: requestID.rawValue,
          message: texts.receipt(order, price: juice.price),
          stock: Dictionary(
            uniqueKeysWithValues: zip(store.fruits.map(\.rawValue), try context.levels(of: store))),
          price: juice.price.map(PriceDocument.init),
          total: juice.price?.times(count).map(PriceDocument.init)))
    } else {
      context.say(texts.receipt(order, price: juice.price))
    }
  }

  /// The words in the user's language with every juice's name.
  private static func everyName(_ context: Context) throws(CLIError) -> Texts {
    Texts(
      localizer: try context.stringsInEveryLanguage().localizer(
        for: context.configuration.language(given: context.global.lang)))
  }
}
