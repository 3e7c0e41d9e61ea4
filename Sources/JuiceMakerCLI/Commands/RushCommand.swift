import Foundation
import JuiceMakerKit
import Synchronization

/// `juice-maker rush --shops N --orders M [--seed S] [--threads | --tasks] [--store FILE]`:
/// many shops ordering against one store at once, with a report and a conservation check.
///
/// Without `--threads` or `--tasks` the shops take turns on one thread, so the same seed
/// gives the same result.
struct RushCommand {
  let context: Context

  /// How a rush runs its shops.
  enum Mode: String, Encodable {
    /// Shops take turns on one thread; the result depends only on the seed.
    case sequential
    /// One OS thread per shop.
    case threads
    /// One task per shop, on the cooperative pool.
    case tasks
  }

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
    let mode: Mode =
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

/// A rush of orders from many shops against one store.
struct Rush: Sendable {
  /// What one shop or one juice saw.
  struct Tally: Sendable, Encodable {
    var made = 0
    var refused = 0
  }

  /// The outcome of a rush.
  struct Report: Sendable {
    var shops: [Tally]
    var juices: [Tally]
    var made: Int { shops.reduce(0) { $0 + $1.made } }
    var refused: Int { shops.reduce(0) { $0 + $1.refused } }
    var seconds: Double
    /// The first failure of a shop other than a refusal for stock, if any.
    var failure: JuiceMakerError?
    /// Every level after the rush.
    var final: [Int]
    /// What broke the conservation law, or `nil` when it held.
    var broken: String?
  }

  /// What one shop did, for the conservation check.
  struct ShopResult: Sendable {
    var tally = Tally()
    var juices: [Tally]
    var withdrawn: [Int]
    var restocked: [Int]
    /// The first order or restock that failed for another reason than stock; the
    /// shop stops there.
    var failure: JuiceMakerError?
  }

  let catalog: Catalog
  let store: FruitStore
  let shops: Int
  let orders: Int
  let seed: UInt64
  /// Every this many orders a shop restocks one fruit.
  static let restockInterval = 10

  func run(_ mode: RushCommand.Mode) throws(FruitStoreError) -> Report {
    let initial = try store.levels()
    let start = ContinuousClock.now
    var results: [ShopResult]
    switch mode {
    case .sequential:
      var states = (0..<shops).map { ShopState(rush: self, index: $0) }
      for _ in 0..<orders {
        for index in states.indices where states[index].result.failure == nil {
          states[index].step()
        }
      }
      results = states.map(\.result)
    case .threads:
      let collected = Mutex<[Int: ShopResult]>([:])
      let group = DispatchGroup()
      for index in 0..<shops {
        group.enter()
        let thread = Thread {
          var state = ShopState(rush: self, index: index)
          for _ in 0..<orders where state.result.failure == nil { state.step() }
          let result = state.result
          collected.withLock { $0[index] = result }
          group.leave()
        }
        thread.start()
      }
      group.wait()
      results = collected.withLock { all in (0..<shops).compactMap { all[$0] } }
    case .tasks:
      let collected = Mutex<[Int: ShopResult]>([:])
      let semaphore = DispatchSemaphore(value: 0)
      let rush = self
      Task.detached {
        await withTaskGroup(of: (Int, ShopResult).self) { group in
          for index in 0..<rush.shops {
            group.addTask {
              var state = ShopState(rush: rush, index: index)
              for _ in 0..<rush.orders where state.result.failure == nil { state.step() }
              return (index, state.result)
            }
          }
          for await (index, result) in group {
            collected.withLock { $0[index] = result }
          }
        }
        semaphore.signal()
      }
      semaphore.wait()
      results = collected.withLock { all in (0..<shops).compactMap { all[$0] } }
    }
    let elapsed = ContinuousClock.now - start
    let final = try store.levels()
    var broken: [String] = []
    for (index, fruit) in store.fruits.enumerated() {
      // Wrapping sums: with a pack's huge counts the tallies may pass Int.max, and the
      // law still holds modulo 2^64.
      let withdrawn = results.reduce(0) { $0 &+ $1.withdrawn[index] }
      let restocked = results.reduce(0) { $0 &+ $1.restocked[index] }
      let expected = initial[index] &+ restocked &- withdrawn
      if final[index] != expected || final[index] < 0 {
        broken.append("\(fruit): expected \(expected), found \(final[index])")
      }
    }
    var juices = [Tally](repeating: Tally(), count: catalog.juices.count)
    for result in results {
      for (index, tally) in result.juices.enumerated() {
        juices[index].made += tally.made
        juices[index].refused += tally.refused
      }
    }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Report(
      shops: results.map(\.tally), juices: juices, seconds: seconds,
      failure: results.lazy.compactMap(\.failure).first, final: final,
      broken: broken.isEmpty ? nil : broken.joined(separator: "; "))
  }

  /// One shop's state during a rush: its random numbers and its tallies.
  struct ShopState {
    let shop: JuiceMaker
    let weights: [Int]
    let totalWeight: Int
    let fruitIndices: [Fruit.ID: Int]
    var random: SplitMix64
    var result: ShopResult
    var steps = 0

    init(rush: Rush, index: Int) {
      shop = JuiceMaker(name: "shop-\(index + 1)", catalog: rush.catalog, store: rush.store)
      // Juices that take fewer fruits are ordered more often, as on a real menu.
      weights = rush.catalog.juices.map { juice in
        // Counts are capped before adding, so a pack's huge counts cannot overflow.
        let fruits = juice.ingredients.reduce(0) { $0 + min($1.count, 32) }
        return max(1, 32 / max(1, fruits))
      }
      totalWeight = weights.reduce(0, +)
      fruitIndices = Dictionary(
        uniqueKeysWithValues: rush.store.fruits.enumerated().map { ($1, $0) })
      random = SplitMix64(seed: rush.seed &+ UInt64(index) &* 0x9E37_79B9)
      result = ShopResult(
        juices: [Tally](repeating: Tally(), count: rush.catalog.juices.count),
        withdrawn: [Int](repeating: 0, count: rush.store.fruits.count),
        restocked: [Int](repeating: 0, count: rush.store.fruits.count))
    }

    mutating func step() {
      steps += 1
      let catalog = shop.catalog
      if steps % Rush.restockInterval == 0, !catalog.fruits.isEmpty {
        let fruit = catalog.fruits[Int(random.next() % UInt64(catalog.fruits.count))].id
        let amount = Int(random.next() % 20) + 1
        do {
          try shop.restock(amount, of: fruit)
          if let index = fruitIndices[fruit] { result.restocked[index] &+= amount }
        } catch {
          // A pack's huge stock may overflow; anything else ends the rush.
          if case .overflow = error {} else { result.failure = error }
        }
      }
      guard totalWeight > 0 else { return }
      var pick = Int(random.next() % UInt64(totalWeight))
      var juiceIndex = 0
      while pick >= weights[juiceIndex] {
        pick -= weights[juiceIndex]
        juiceIndex += 1
      }
      let juice = catalog.juices[juiceIndex]
      do throws(JuiceMakerError) {
        try shop.make(juice)
        result.tally.made += 1
        result.juices[juiceIndex].made += 1
        for ingredient in juice.ingredients {
          if let index = fruitIndices[ingredient.fruit] {
            result.withdrawn[index] &+= ingredient.count
          }
        }
      } catch {
        guard case .outOfStock = error else {
          result.failure = error
          return
        }
        result.tally.refused += 1
        result.juices[juiceIndex].refused += 1
      }
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
  let mode: RushCommand.Mode
  let made: Int
  let refused: Int
  let seconds: Double
  let ordersPerSecond: Double
  let shops: [Shop]
  let juices: [JuiceTally]
  let stock: [String: Int]
  let conserved: Bool
  let problem: String?

  init(_ report: Rush.Report, mode: RushCommand.Mode, catalog: Catalog, store: FruitStore) {
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
