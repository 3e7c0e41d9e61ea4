import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

/// Orders per second through `JuiceMaker.make` on a `FruitStore` over an SQLite store
/// file, one thread, at each `SQLiteStockStorage.Durability`, and at `.full` next to
/// Python's `sqlite3` module running the same transaction (`PythonSQLiteOrders`).
///
/// Each order is one committed transaction that updates the levels and writes one journal
/// entry. The files live in one directory of the system's temporary directory, start with
/// `Menu.plentiful` of each fruit so every order succeeds, and are deleted afterwards. The
/// orders follow the mixed plan of `Menu`.
///
/// At `.full`, Python places the same orders on its own fresh store file, created by
/// `SQLiteStockStorage` in the same directory, interleaved with ours: each run alternates
/// slices of 4 orders between the two (each side going first every other slice), and
/// each side's rate counts its own slices' time only. A commit there waits for the
/// disk's flush, so the rates depend on the disk and their ratio does not. The ratio is
/// the median of the runs' ratios (its bounds their extremes): a shared disk's flush
/// time swings several-fold within a second, and the two sides of a run see the same
/// swings.
///
/// Without a `python3` on `PATH`, or one that cannot run the baseline, a note says so
/// and the two figures are not measured.
struct DurableBenchmarks {
  let options: Options
  let menu = Menu()

  private static let python = "durable.python_sqlite3.full"
  private static let ratio = "durable.ratio.full_vs_python_sqlite3"
  private static let shopName = "bench"
  private static let busyTimeout: Duration = .seconds(15)

  @MainActor
  func run(into report: inout Report) async throws(BenchmarkError) {
    let goals: [SQLiteStockStorage.Durability: Double] = [.full: 5_000, .normal: 50_000]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-durable-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: directory) }
    for durability in SQLiteStockStorage.Durability.allCases {
      let name = "durable.\(durability.rawValue)"
      let compared =
        durability == .full && (options.wants(Self.python) || options.wants(Self.ratio))
      guard options.wants(name) || compared else { continue }
      let path = directory.appendingPathComponent("\(durability.rawValue).sqlite").path
      let shop = try Self.shop(path: path, durability: durability, menu: menu)
      let python =
        compared
        ? try startPython(
          path: directory.appendingPathComponent("\(durability.rawValue)-python.sqlite").path,
          durability: durability) : nil
      defer { python?.finish() }
      let juices = menu.mixed.runs.map { menu.catalog.juices[$0.juice] }
      var made = 0
      var pythonRuns: [Throughput.Timed] = []
      let samples = try await Throughput.measure(
        runs: options.runs, duration: options.runDuration * 2
      ) { batches, deadline throws(BenchmarkError) in
        guard let python else {
          return try Self.orders(batches * 16, shop: shop, juices: juices, made: &made, deadline)
        }
        // Slices of 4 orders, ours and Python's in turn, each side going first every
        // other slice: both see the disk of the same few milliseconds.
        var ours = Duration.zero
        var theirs = Duration.zero
        var done = 0
        while done < batches * 16, done % 16 != 0 || ContinuousClock.now < deadline {
          if (done / 4).isMultiple(of: 2) {
            ours += try Self.orders(4, shop: shop, juices: juices, made: &made).elapsed
            theirs += try python.run(orders: 4).elapsed
          } else {
            theirs += try python.run(orders: 4).elapsed
            ours += try Self.orders(4, shop: shop, juices: juices, made: &made).elapsed
          }
          done += 4
        }
        pythonRuns.append(Throughput.Timed(operations: done, elapsed: theirs))
        return Throughput.Timed(operations: done, elapsed: ours)
      }
      report.record(
        Figure(name, .ordersPerSecond, samples, goal: goals[durability].map { .atLeast($0) }))
      if python != nil {
        // `measure` calibrates first; its last `runs` calls are the timed runs, in order.
        let rates = pythonRuns.suffix(options.runs).map {
          Double($0.operations) / $0.elapsed.seconds
        }
        report.record(Figure(Self.python, .ordersPerSecond, Samples(rates)))
        let ratios = zip(samples.values, rates).map { $0 / $1 }
        report.record(Figure(Self.ratio, .ratio, Samples(ratios), goal: .atLeast(0.9)))
      }
    }
  }

  /// A shop over a store file created at `path`.
  private static func shop(
    path: String, durability: SQLiteStockStorage.Durability, menu: Menu
  ) throws(BenchmarkError) -> JuiceMaker {
    do {
      let storage = try SQLiteStockStorage(
        path: path, fruits: menu.catalog.fruits, durability: durability,
        busyTimeout: busyTimeout)
      return JuiceMaker(
        name: shopName, catalog: menu.catalog, store: FruitStore(storage: storage))
    } catch {
      throw .failed("cannot open \(path): \(error)")
    }
  }

  /// Python's `sqlite3` on a fresh store file at `path`, created and closed by
  /// `SQLiteStockStorage`; `nil`, with a note, when `python3` is not on `PATH`.
  private func startPython(
    path: String, durability: SQLiteStockStorage.Durability
  ) throws(BenchmarkError) -> PythonSQLiteOrders? {
    guard let interpreter = PythonSQLiteOrders.locate() else {
      Report.note("python3 is not on PATH: \(Self.python) and \(Self.ratio) not measured")
      return nil
    }
    do {
      // Released at once, so Python's connection is the file's only one.
      _ = try SQLiteStockStorage(
        path: path, fruits: menu.catalog.fruits, durability: durability,
        busyTimeout: Self.busyTimeout)
    } catch {
      throw .failed("cannot create \(path): \(error)")
    }
    let python: PythonSQLiteOrders
    do {
      python = try PythonSQLiteOrders(
        python: interpreter, path: path, durability: durability, busyTimeout: Self.busyTimeout,
        editor: Self.shopName, menu: menu)
    } catch {
      guard case .failed(let problem) = error else { throw error }
      Report.note("\(problem): \(Self.python) and \(Self.ratio) not measured")
      return nil
    }
    Report.note(
      "durable: \(interpreter) runs the same transaction with its sqlite3 module on SQLite"
        + " \(python.sqliteVersion); ours runs on SQLite \(StoreStatements.libraryVersion)")
    return python
  }

  /// Places `count` orders (fewer once past a deadline), continuing the plan at `made`.
  private static func orders(
    _ count: Int, shop: JuiceMaker, juices: [Juice], made: inout Int,
    _ deadline: ContinuousClock.Instant? = nil
  ) throws(BenchmarkError) -> Throughput.Timed {
    let start = ContinuousClock.now
    var done = 0
    while done < count, done % 16 != 0 || deadline.map({ ContinuousClock.now < $0 }) ?? true {
      do {
        try shop.make(juices[made % juices.count])
      } catch {
        throw .wrongResult("a durable order failed: \(error)")
      }
      made += 1
      done += 1
    }
    return Throughput.Timed(operations: done, elapsed: ContinuousClock.now - start)
  }
}
