import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

/// Orders per second through `JuiceMaker.make` on a `FruitStore` over an SQLite store
/// file, one thread, at each `SQLiteStockStorage.Durability`.
///
/// Each order is one committed transaction that updates the levels and writes one journal
/// entry. The file lives in the system's temporary directory, starts with
/// `Menu.plentiful` of each fruit so every order succeeds, and is deleted afterwards. The
/// orders follow the mixed plan of `Menu`.
struct DurableBenchmarks {
  let options: Options
  let menu = Menu()

  func run(into report: inout Report) throws(BenchmarkError) {
    let goals: [SQLiteStockStorage.Durability: Double] = [.full: 5_000, .normal: 50_000]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-durable-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: directory) }
    for durability in SQLiteStockStorage.Durability.allCases {
      let name = "durable.\(durability.rawValue)"
      guard options.wants(name) else { continue }
      let path = directory.appendingPathComponent("\(durability.rawValue).sqlite").path
      let shop: JuiceMaker
      do {
        let storage = try SQLiteStockStorage(
          path: path, fruits: menu.catalog.fruits, durability: durability)
        shop = JuiceMaker(
          name: "bench", catalog: menu.catalog, store: FruitStore(storage: storage))
      } catch {
        throw .failed("cannot open \(path): \(error)")
      }
      let juices = menu.mixed.runs.map { menu.catalog.juices[$0.juice] }
      let samples = try Throughput.measure(
        runs: options.runs, duration: options.runDuration * 2
      ) { batches, deadline throws(BenchmarkError) in
        let start = ContinuousClock.now
        var made = 0
        while made < batches * 16, made % 16 != 0 || ContinuousClock.now < deadline {
          do {
            try shop.make(juices[made % juices.count])
          } catch {
            throw .wrongResult("a durable order failed: \(error)")
          }
          made += 1
        }
        return Throughput.Timed(operations: made, elapsed: ContinuousClock.now - start)
      }
      report.record(
        Figure(name, .ordersPerSecond, samples, goal: goals[durability].map { .atLeast($0) }))
    }
  }
}
