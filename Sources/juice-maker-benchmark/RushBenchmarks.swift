import Foundation
import JuiceMakerKit

/// The workload `juice-maker rush` runs, measured with the same loop (`Rush`): the
/// shipped menu and stock, a restock every 10 orders, juices picked by the menu's
/// weights, most orders refused once the stock runs out, each refusal listing its
/// shortages. Next to it, `DictionaryRush` runs the same workload the obvious way: a
/// `String`-keyed dictionary under `NSLock`.
struct RushBenchmarks {
  let options: Options
  let paths: Paths

  /// Where the shops run.
  private enum Workers {
    case threads(Int)
    case tasks(Int)

    var count: Int {
      switch self {
      case .threads(let count), .tasks(let count): count
      }
    }

    var name: String {
      switch self {
      case .threads(1): "1_thread"
      case .threads(let count): "\(count)_threads"
      case .tasks(let count): "\(count)_tasks"
      }
    }
  }

  private static let workers: [Workers] = [.threads(1), .threads(2), .threads(8), .tasks(8)]
  /// The seed of every run, as `juice-maker rush --seed 7`.
  private static let seed: UInt64 = 7

  /// Measures every figure of the group and its ratios into the report.
  @MainActor
  func run(into report: inout Report) async throws(BenchmarkError) {
    let catalog: Catalog
    do {
      catalog = try Catalog.load(from: paths.root.appendingPathComponent("Recipes"))
    } catch {
      throw .failed("cannot load the shipped recipes: \(error)")
    }
    let orders = options.quick ? 400_000 : 4_000_000
    for workers in Self.workers {
      let name = "rush.juice_maker.\(workers.name)"
      let baseline = "rush.dictionary_nslock.\(workers.name)"
      if options.wants(name) || options.wants("rush.ratio") {
        report.record(
          Figure(
            name, .ordersPerSecond,
            try await samples { () async throws(BenchmarkError) in
              try await rate(catalog: catalog, workers: workers, orders: orders)
            }, goal: workers.count == 1 ? .atLeast(30_000_000) : nil))
      }
      if options.wants(baseline) || options.wants("rush.ratio") {
        report.record(
          Figure(
            baseline, .ordersPerSecond,
            try await samples { () async throws(BenchmarkError) in
              await DictionaryRush(catalog: catalog, shops: workers.count, seed: Self.seed)
                .rate(orders: orders / workers.count, tasks: isTasks(workers))
            }))
      }
    }
    report.recordRatio(
      "rush.ratio.1_thread_vs_dictionary_nslock", "rush.juice_maker.1_thread",
      "rush.dictionary_nslock.1_thread", goal: .atLeast(6))
    report.recordRatio(
      "rush.ratio.8_threads_vs_dictionary_nslock", "rush.juice_maker.8_threads",
      "rush.dictionary_nslock.8_threads", goal: .atLeast(6))
    report.recordRatio(
      "rush.ratio.8_threads_vs_1_thread", "rush.juice_maker.8_threads",
      "rush.juice_maker.1_thread", goal: .atLeast(0.5))
    report.recordRatio(
      "rush.ratio.8_tasks_vs_1_thread", "rush.juice_maker.8_tasks", "rush.juice_maker.1_thread",
      goal: .atLeast(0.5))
  }

  private func isTasks(_ workers: Workers) -> Bool {
    if case .tasks = workers { return true }
    return false
  }

  @MainActor
  private func samples(_ measure: () async throws(BenchmarkError) -> Double)
    async throws(BenchmarkError) -> Samples
  {
    var values: [Double] = []
    for _ in 0..<options.runs {
      values.append(try await measure())
    }
    return Samples(values)
  }

  /// Orders per second of one rush over a fresh in-memory store, conservation checked.
  private func rate(catalog: Catalog, workers: Workers, orders: Int)
    async throws(BenchmarkError) -> Double
  {
    let rush = Rush(
      catalog: catalog, store: FruitStore(catalog: catalog), shops: workers.count,
      orders: orders / workers.count, seed: Self.seed)
    let report: Rush.Report
    do {
      report = try await rush.run(isTasks(workers) ? .tasks : .threads)
    } catch {
      throw .failed("the rush could not read the store: \(error)")
    }
    if let broken = report.broken { throw .wrongResult("the rush broke conservation: \(broken)") }
    if let failure = report.failure { throw .failed("a shop failed: \(failure)") }
    return Double(report.made + report.refused) / max(report.seconds, 1e-9)
  }
}

/// The rush workload written the obvious way: stock in a `[String: Int]` under an
/// `NSLock`, recipes as fruit names, a refusal building its list of shortages.
struct DictionaryRush: Sendable {
  private final class Stock: @unchecked Sendable {
    let lock = NSLock()
    var levels: [String: Int]

    init(_ levels: [String: Int]) {
      self.levels = levels
    }
  }

  private struct Shortage {
    let fruit: String
    let needed: Int
    let available: Int
  }

  private let stock: Stock
  private let fruits: [String]
  private let recipes: [[(fruit: String, count: Int)]]
  private let weights: [Int]
  private let shops: Int
  private let seed: UInt64

  init(catalog: Catalog, shops: Int, seed: UInt64) {
    stock = Stock(
      Dictionary(uniqueKeysWithValues: catalog.fruits.map { ($0.id.rawValue, $0.initialStock) }))
    fruits = catalog.fruits.map(\.id.rawValue)
    recipes = catalog.juices.map { juice in
      juice.ingredients.map { (fruit: $0.fruit.rawValue, count: $0.count) }
    }
    weights = catalog.juices.map { juice in
      max(1, 32 / max(1, juice.ingredients.reduce(0) { $0 + min($1.count, 32) }))
    }
    self.shops = shops
    self.seed = seed
  }

  /// Orders per second of `orders` orders per shop, on threads or tasks.
  @MainActor
  func rate(orders: Int, tasks: Bool) async -> Double {
    let body: @Sendable (Int) -> Void = { shop in
      var random = SplitMix64(seed: seed &+ UInt64(shop) &* 0x9E37_79B9)
      var refused = 0
      let total = weights.reduce(0, +)
      for step in 1...orders {
        if step % Rush.restockInterval == 0 {
          let fruit = fruits[Int(random.next() % UInt64(fruits.count))]
          let amount = Int(random.next() % 20) + 1
          stock.lock.lock()
          stock.levels[fruit, default: 0] += amount
          stock.lock.unlock()
        }
        var pick = Int(random.next() % UInt64(total))
        var juice = 0
        while pick >= weights[juice] {
          pick -= weights[juice]
          juice += 1
        }
        let recipe = recipes[juice]
        stock.lock.lock()
        var shortages: [Shortage] = []
        for ingredient in recipe {
          let available = stock.levels[ingredient.fruit] ?? 0
          if available < ingredient.count {
            shortages.append(
              Shortage(fruit: ingredient.fruit, needed: ingredient.count, available: available))
          }
        }
        if shortages.isEmpty {
          for ingredient in recipe {
            stock.levels[ingredient.fruit, default: 0] -= ingredient.count
          }
        }
        stock.lock.unlock()
        if !shortages.isEmpty { refused += 1 }
      }
      precondition(refused <= orders)
    }
    let elapsed =
      tasks ? await Parallel.tasks(shops) { body($0) } : Parallel.threads(shops, body)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(orders * shops) / max(seconds, 1e-9)
  }
}
