import FoundationEssentials
import JuiceMakerKit

/// `juice-maker rush --shops N --orders M [--seed S] [--threads | --tasks] [--store FILE]`:
/// many shops ordering against one store at once, with a report and a conservation check.
///
/// Without `--threads` or `--tasks` the shops take turns on one thread, so the same seed
/// gives the same result.
struct RushCommand: Command {
  static let shopsOption = Option.number("shops", .positive)
  static let ordersOption = Option.number("orders", .positive, metavariable: "M")
  static let seedOption = Option.number("seed", .nonNegative, metavariable: "S")
  static let threadsFlag = Flag("threads")
  static let tasksFlag = Flag("tasks")
  static let definition = CommandDefinition(
    name: "rush",
    options: [
      shopsOption.spec, ordersOption.spec, seedOption.spec, threadsFlag.spec, tasksFlag.spec,
    ],
    exclusive: [[threadsFlag.spec, tasksFlag.spec]], showsOneLanguage: true, loadsMenu: true)

  let context: Context
  let shops: Int
  let orders: Int
  let seed: Int
  let mode: Rush.Mode

  /// Only a rush on `--store` changes a store; one in memory leaves nothing behind.
  var changesStore: Bool { context.global.store != nil }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    shops = try line.value(Self.shopsOption) ?? 4
    orders = try line.value(Self.ordersOption) ?? 1000
    seed = try line.value(Self.seedOption) ?? 1
    guard shops <= 1024 else { throw .tooLarge(value: String(shops), option: "--shops") }
    mode =
      line.isSet(Self.threadsFlag) ? .threads : line.isSet(Self.tasksFlag) ? .tasks : .sequential
  }

  nonisolated(nonsending) func run(input: inout any LineInput) async throws(CLIError) {
    // Only --store on this command line makes a rush durable: its fake orders and restocks
    // must never land in a store an exported JUICE_MAKER_STORE happens to name.
    let catalog: Catalog
    let store: FruitStore
    let location: String?
    if context.global.store != nil {
      let opened = try context.openShop()
      (catalog, store) = (opened.menu.catalog, opened.store)
      location = context.store.shown
    } else {
      catalog = try context.loadCatalog()
      store = FruitStore(catalog: catalog)
      location = nil
    }
    let rush = Rush(
      catalog: catalog, store: store, shops: shops, orders: orders, seed: UInt64(seed))
    let report: Rush.Report
    do {
      report = try await rush.run(mode)
    } catch {
      throw CLIError(error)
    }
    if let failure = report.failure {
      throw CLIError(failure)
    }
    if context.json {
      context.emit(
        RushDocument(report, mode: mode, catalog: catalog, store: store, location: location))
    } else {
      context.say(
        location.map { context.texts.string("rush.store.file", .string(context.texts.shown($0))) }
          ?? context.texts.string("rush.store.memory"))
      print(report, catalog: catalog, store: store)
    }
    if let broken = report.broken {
      throw .conservationBroken(broken)
    }
  }

  private func print(_ report: Rush.Report, catalog: Catalog, store: FruitStore) {
    let texts = context.texts
    let rate = Int(Double(report.made + report.refused) / max(report.seconds, 1e-9))
    context.say(
      texts.string(
        "rush.report", .int(report.shops.count), .int(report.made), .int(report.refused),
        .int(rate)))
    for (index, shop) in report.shops.enumerated() {
      context.say(
        "  " + texts.string("rush.shop", .int(index + 1), .int(shop.made), .int(shop.refused)))
    }
    for (juice, tally) in zip(catalog.juices, report.juices) {
      context.say(
        "  "
          + texts.string(
            "rush.juice", .string(texts.name(of: juice.id)), .int(tally.made), .int(tally.refused)))
    }
    let stock = zip(store.fruits, report.final).map {
      texts.name(of: $0, count: $1) + " " + String($1)
    }
    context.say(texts.string("rush.stock", .string(stock.joined(separator: " · "))))
    let short = zip(store.fruits, report.short).map {
      texts.name(of: $0, count: $1) + " " + String($1)
    }
    context.say(texts.string("rush.short", .string(short.joined(separator: " · "))))
    if report.broken == nil {
      context.say(texts.string("rush.conserved"))
    }
  }
}

/// The `--json` report of a rush.
struct RushDocument: Encodable {
  struct Shop: Encodable {
    let name: String
    let made: Int
    let refused: Int
  }

  struct JuiceTally: Encodable {
    let id: String
    let made: Int
    let refused: Int
  }

  let ok: Bool
  let mode: Rush.Mode
  let made: Int
  let refused: Int
  let seconds: Double
  let ordersPerSecond: Double
  let shops: [Shop]
  let juices: [JuiceTally]
  let stock: [String: Int]
  /// How many refusals each fruit was short in.
  let short: [String: Int]
  let conserved: Bool
  let problem: String?

  /// The store file or URI, passwords redacted, or `nil` for a store in memory.
  let store: String?

  init(
    _ report: Rush.Report, mode: Rush.Mode, catalog: Catalog, store: FruitStore,
    location: String?
  ) {
    self.store = location
    ok = report.broken == nil
    self.mode = mode
    made = report.made
    refused = report.refused
    seconds = report.seconds
    ordersPerSecond = Double(report.made + report.refused) / max(report.seconds, 1e-9)
    shops = report.shops.enumerated().map {
      Shop(name: "shop-\($0.offset + 1)", made: $0.element.made, refused: $0.element.refused)
    }
    juices = zip(catalog.juices, report.juices).map {
      JuiceTally(id: $0.id.rawValue, made: $1.made, refused: $1.refused)
    }
    stock = Dictionary(uniqueKeysWithValues: zip(store.fruits.map(\.rawValue), report.final))
    short = Dictionary(uniqueKeysWithValues: zip(store.fruits.map(\.rawValue), report.short))
    conserved = report.broken == nil
    problem = report.broken
  }
}
