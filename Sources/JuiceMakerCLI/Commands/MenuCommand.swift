import Dispatch
import FoundationEssentials
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
    // The catalog's juices and a count each, rather than a copy of every juice.
    let (menu, makeable) = (catalog.juices, try shop.makeable())
    let texts = context.texts
    if context.json {
      context.emit(
        MenuDocument(
          juices: zip(menu, makeable).map { juice, makeable in
            JuiceDocument(
              id: juice.id.rawValue, name: texts.localizer.name(of: juice.id),
              ingredients: juice.ingredients, makeable: makeable,
              price: juice.price.map(PriceDocument.init))
          }))
      return
    }
    // A large menu is worded on every core, a batch of juices at a time, each batch
    // written as soon as it is worded: the whole menu's text is never held at once.
    let parts = menu.count < Self.juicesWorthAThread ? 1 : Self.cores
    let names = Self.concurrently(Self.runs(of: 0..<menu.count, parts: parts)) { run in
      menu[run.juices].map { texts.name(of: $0.id) }
    }.flatMap { $0 }
    let width = names.map(\.displayWidth).max() ?? 0
    let prices = menu.map { $0.price.map(texts.price) ?? "" }
    let priceWidth = prices.map(\.displayWidth).max() ?? 0
    let lines = Lines(
      menu: menu, makeable: makeable, names: names, width: width, prices: prices,
      priceWidth: priceWidth, texts: texts, parts: parts)
    for batch in stride(from: 0, to: menu.count, by: Self.batchSize) {
      let juices = batch..<min(batch + Self.batchSize, menu.count)
      let text = Self.concurrently(Self.runs(of: juices, parts: parts), lines.text).joined()
      if !text.isEmpty { context.output.write(text) }
    }
  }

  /// The juices of a menu worded in one batch, so that a batch's text stays small.
  private static let batchSize = 1_024
  /// The fewest juices worth a thread of their own.
  private static let juicesWorthAThread = 1_000
  /// The threads a large menu is worded on.
  private static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

  /// Words the lines of a menu, each part of a batch on its own thread.
  ///
  /// Each part keeps the words it has made, since a menu names the same few fruits and
  /// counts many times. A part's words are used by one thread at a time: the parts of one
  /// batch run at once, each on its own, and one batch ends before the next starts.
  private final class Lines: @unchecked Sendable {
    let menu: [Juice]
    let makeable: [Int]
    let names: [String]
    let width: Int
    let prices: [String]
    let priceWidth: Int
    let texts: Texts
    /// Each part's words, by part.
    private let words: [Words]

    /// The words one part has made: an ingredient's, and a count's.
    private final class Words {
      var ingredients: [Ingredient: String] = [:]
      var makeable: [Int: String] = [:]
    }

    init(
      menu: [Juice], makeable: [Int], names: [String], width: Int, prices: [String],
      priceWidth: Int, texts: Texts, parts: Int
    ) {
      (self.menu, self.makeable, self.names, self.width) = (menu, makeable, names, width)
      (self.prices, self.priceWidth, self.texts) = (prices, priceWidth, texts)
      words = (0..<parts).map { _ in Words() }
    }

    /// The lines of a run of the menu's juices, each ending in a newline.
    func text(of run: Run) -> String {
      let words = words[run.part]
      var text = ""
      text.reserveCapacity(run.juices.count * (width + priceWidth + 48))
      for index in run.juices {
        let (juice, name, price) = (menu[index], names[index], prices[index])
        text += name.padded(to: width)
        text += "  "
        // Prices right-aligned, so their digits line up.
        if priceWidth > 0 {
          text += String(repeating: " ", count: priceWidth - price.displayWidth)
          text += price
          text += "  "
        }
        text += texts.localizer.list(
          juice.ingredients.map { ingredient in
            if let worded = words.ingredients[ingredient] { return worded }
            let worded = MenuCommand.ingredient(ingredient, texts: texts)
            words.ingredients[ingredient] = worded
            return worded
          })
        text += "  "
        if let worded = words.makeable[makeable[index]] {
          text += worded
        } else {
          let worded = texts.string("menu.makeable", .int(makeable[index]))
          words.makeable[makeable[index]] = worded
          text += worded
        }
        text += "\n"
      }
      return text
    }
  }

  /// Some of the menu's juices, worded by one part.
  private struct Run {
    let juices: Range<Int>
    let part: Int
  }

  /// Some positions of the menu cut into `parts` runs, in order.
  private static func runs(of juices: Range<Int>, parts: Int) -> [Run] {
    let (start, count) = (juices.lowerBound, juices.count)
    return (0..<parts).map { part in
      Run(juices: start + count * part / parts..<start + count * (part + 1) / parts, part: part)
    }
  }

  /// `body` of each run, on as many threads as there are runs, in the runs' order.
  private static func concurrently<Value: Sendable>(
    _ runs: [Run], _ body: @Sendable (Run) -> Value
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
