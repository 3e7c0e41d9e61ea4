import Foundation
import JuiceMakerKit
import Synchronization

/// `juice-maker menu`: each juice with its name, recipe, and how many can be made now.
struct MenuCommand: Command {
  static let definition = CommandDefinition(name: "menu", showsOneLanguage: true, loadsMenu: true)

  let context: Context

  init(parsing line: ParsedCommandLine, context: Context) {
    self.context = context
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try self.context.openShop()
    let (context, catalog, store) = (opened.context, opened.menu.catalog, opened.store)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    let menu = try shop.menu()
    let texts = context.texts
    if context.json {
      context.emit(
        MenuDocument(
          juices: menu.map { item in
            JuiceDocument(
              id: item.juice.id.rawValue, name: texts.localizer.name(of: item.juice.id),
              ingredients: item.juice.ingredients, makeable: item.makeable,
              price: item.juice.price.map(PriceDocument.init))
          }))
      return
    }
    // A large menu is worded on every core, in as many runs of juices, joined in order.
    let runs = Self.runs(of: menu.count)
    let names = Self.concurrently(runs) { run in
      menu[run].map { texts.name(of: $0.juice.id) }
    }.flatMap { $0 }
    let width = names.map(\.displayWidth).max() ?? 0
    let prices = menu.map { $0.juice.price.map(texts.price) ?? "" }
    let priceWidth = prices.map(\.displayWidth).max() ?? 0
    var text = Self.concurrently(runs) { run in
      Self.lines(
        run, of: menu, names: names, width: width, prices: prices, priceWidth: priceWidth,
        texts: texts)
    }.filter { !$0.isEmpty }.joined(separator: "\n")
    // Written as it is, with its last newline, rather than copied to add it.
    if !text.isEmpty {
      text += "\n"
      context.output.write(text)
    }
  }

  /// The lines of some of the menu's juices, one text.
  private static func lines(
    _ run: Range<Int>, of menu: [MenuItem], names: [String], width: Int, prices: [String],
    priceWidth: Int, texts: Texts
  ) -> String {
    // A menu names the same few fruits and counts many times: each is worded once.
    var ingredients: [Ingredient: String] = [:]
    var makeable: [Int: String] = [:]
    var text = ""
    text.reserveCapacity(run.count * (width + priceWidth + 48))
    for index in run {
      let (item, name, price) = (menu[index], names[index], prices[index])
      // Prices right-aligned, so their digits line up.
      let priceColumn =
        priceWidth == 0
        ? "" : String(repeating: " ", count: priceWidth - price.displayWidth) + price + "  "
      let recipe = texts.localizer.list(
        item.juice.ingredients.map { ingredient in
          if let worded = ingredients[ingredient] { return worded }
          let worded = Self.ingredient(ingredient, texts: texts)
          ingredients[ingredient] = worded
          return worded
        })
      let count: String
      if let worded = makeable[item.makeable] {
        count = worded
      } else {
        count = texts.string("menu.makeable", .int(item.makeable))
        makeable[item.makeable] = count
      }
      if !text.isEmpty { text += "\n" }
      text += name.padded(to: width)
      text += "  "
      text += priceColumn
      text += recipe
      text += "  "
      text += count
    }
    return text
  }

  /// The menu's positions cut into one run for each core, or one run for a menu of fewer
  /// than 1,000 juices, which is not worth a thread.
  private static func runs(of count: Int) -> [Range<Int>] {
    let parts = count < 1_000 ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
    return (0..<parts).map { part in count * part / parts..<count * (part + 1) / parts }
  }

  /// `body` of each run, on as many threads as there are runs, in the runs' order.
  private static func concurrently<Value: Sendable>(
    _ runs: [Range<Int>], _ body: @Sendable (Range<Int>) -> Value
  ) -> [Value] {
    guard runs.count > 1 else { return runs.map(body) }
    let results = Mutex([Value?](repeating: nil, count: runs.count))
    DispatchQueue.concurrentPerform(iterations: runs.count) { part in
      let value = body(runs[part])
      results.withLock { $0[part] = value }
    }
    return results.withLock { $0.compactMap { $0 } }
  }

  /// "딸기 10, 바나나 1".
  static func recipe(_ juice: Juice, texts: Texts) -> String {
    texts.localizer.list(juice.ingredients.map { ingredient($0, texts: texts) })
  }

  /// One line of a recipe, such as `kiwis 3`.
  static func ingredient(_ ingredient: Ingredient, texts: Texts) -> String {
    texts.string(
      "menu.ingredient", .string(texts.name(of: ingredient.fruit, count: ingredient.count)),
      .int(ingredient.count))
  }
}
