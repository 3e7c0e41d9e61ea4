import Foundation
import JuiceMakerKit

/// `juice-maker rush --shops N --orders M [--seed S] [--threads | --tasks] [--store FILE]`:
/// many shops ordering against one store at once, with a report and a conservation check.
///
/// Without `--threads` or `--tasks` the shops take turns on one thread, so the same seed
/// gives the same result.
struct RushCommand {
  let context: Context

  func run() throws(CLIError) {
    _ = try context.arguments([], command: "rush")
    let invocation = context.invocation
    let shops = try Quantity.parse(invocation["shops"] ?? "4", for: "--shops", .positive)
    let orders = try Quantity.parse(invocation["orders"] ?? "1000", for: "--orders", .positive)
    let seed = try Quantity.parse(invocation["seed"] ?? "1", for: "--seed", .nonNegative)
    guard shops <= 1024 else { throw .tooLarge(value: String(shops), option: "--shops") }
    if invocation.has("threads") && invocation.has("tasks") {
      throw .conflictingOptions("--threads", "--tasks")
    }
    let mode: Rush.Mode =
      invocation.has("threads") ? .threads : invocation.has("tasks") ? .tasks : .sequential
    let catalog = try context.loadCatalog()
    let store: FruitStore
    if invocation["store"] != nil || context.environment["JUICE_MAKER_STORE"] != nil {
      store = try context.openStore(for: catalog)
    } else {
      store = FruitStore(catalog: catalog)
    }
    let rush = Rush(
      catalog: catalog, store: store, shops: shops, orders: orders, seed: UInt64(seed))
    let report: Rush.Report
    do {
      report = try rush.run(mode)
    } catch {
      throw CLIError(error)
    }
    if let failure = report.failure {
      throw OrderCommand.error(for: failure)
    }
    if context.json {
      context.emit(RushDocument(report, mode: mode, catalog: catalog, store: store))
    } else {
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
    let stock = zip(store.fruits, report.final).map { texts.name(of: $0) + " " + String($1) }
    context.say(texts.string("rush.stock", .string(stock.joined(separator: " · "))))
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
  let conserved: Bool
  let problem: String?

  init(_ report: Rush.Report, mode: Rush.Mode, catalog: Catalog, store: FruitStore) {
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
    conserved = report.broken == nil
    problem = report.broken
  }
}
