import JuiceMakerKit

/// `juice-maker reorder [--csv]`: for each fruit below its par level, how many to buy to
/// bring it back to par, with whether it is at or below its minimum; also `--json`.
struct ReorderCommand: Command {
  static let csvFlag = Flag("csv")
  static let definition = CommandDefinition(
    name: "reorder", options: [csvFlag.spec], showsOneLanguage: true, showsJuiceNames: false,
    loadsMenu: true)

  let context: Context
  let csv: Bool

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    csv = line.isSet(Self.csvFlag)
    if csv, context.json { throw .conflictingOptions("--csv", "--json") }
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try self.context.openShop()
    let (context, catalog, store) = (opened.context, opened.menu.catalog, opened.store)
    let texts = context.texts
    let lines = try Self.lines(store, catalog: catalog, texts: texts, context: context)
    if context.json {
      context.emit(ReorderDocument(fruits: lines))
      return
    }
    if csv {
      context.output.write(
        CSV.document(
          header: ["fruit", "name", "stock", "min", "par", "buy", "low"],
          rows: lines.map {
            [
              $0.id, $0.name, String($0.stock), String($0.min), String($0.par), String($0.buy),
              $0.low ? "yes" : "no",
            ]
          }))
      return
    }
    guard !lines.isEmpty else {
      context.say(texts.string("reorder.none"))
      return
    }
    var table = TextTable(
      header: [
        texts.string("table.fruit"), texts.string("table.stock"), texts.string("table.minimum"),
        texts.string("table.par"), texts.string("table.buy"),
      ],
      alignments: [.left, .right, .right, .right, .right])
    for line in lines {
      let name = texts.shown(line.name) + (line.low ? " " + texts.string("stock.low.mark") : "")
      table.rows.append([
        name, String(line.stock), String(line.min), String(line.par), String(line.buy),
      ])
    }
    for line in table.lines() { context.say(line) }
  }

  /// The fruits to buy: each below par, in level order.
  static func lines(_ store: FruitStore, catalog: Catalog, texts: Texts, context: Context)
    throws(CLIError) -> [ReorderDocument.Line]
  {
    let limits = try StockCommand.limits(store, catalog: catalog)
    let levels = try context.levels(of: store)
    var lines: [ReorderDocument.Line] = []
    for (index, fruit) in store.fruits.enumerated() {
      guard let limits = limits[index] else { continue }
      let buy = limits.reorder(at: levels[index])
      guard buy > 0 else { continue }
      lines.append(
        ReorderDocument.Line(
          id: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: levels[index],
          min: limits.minimum, par: limits.par, buy: buy, low: limits.isLow(levels[index])))
    }
    return lines
  }
}

/// `{"fruits":[{"id","name","stock","min","par","buy","low"}]}`.
struct ReorderDocument: Encodable {
  struct Line: Encodable {
    let id: String
    let name: String
    let stock: Int
    let min: Int
    let par: Int
    let buy: Int
    let low: Bool
  }

  let fruits: [Line]
}
