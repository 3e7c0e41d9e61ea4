import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite
import Synchronization
import TemporaryPostgres

/// `report --by hour` over a store holding 1,000,000 journal entries, on SQLite and on
/// PostgreSQL, and a backup of that store taken while 4 shops order.
///
/// The store is filled in one SQL statement: 1,000,000 entries over 30 days from 4 shops,
/// nine orders in ten (one in twenty of them refused) and one restock in ten, each order
/// priced. The report is `StockStorage.report(_:)` grouped by hour on the local clock of
/// UTC+9, timed from the call to the rows; its goal is 500 ms. While the backup (SQLite's
/// online backup API, or PostgreSQL's logical export) runs, 4 shops, each a thread over a
/// storage of its own, order until it ends; the figure counts the orders that failed
/// (refusals for want of fruit are not failures), and its goal is none.
struct ReportBenchmarks {
  let options: Options
  static let entries = 1_000_000
  static let shops = 4

  static let fruits = [
    Fruit(id: "strawberry", initialStock: 1_000_000_000),
    Fruit(id: "banana", initialStock: 1_000_000_000),
    Fruit(id: "kiwi", initialStock: 1_000_000_000),
  ]

  func run(into report: inout Report) throws(BenchmarkError) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-report-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    if options.wants("report.sqlite") {
      try sqlite(in: directory, into: &report)
    }
    if options.wants("report.postgres") {
      guard TemporaryServer.isInstalled else {
        Report.note("report.postgres: skipped, PostgreSQL is not installed")
        return
      }
      try postgres(in: directory, into: &report)
    }
  }

  // MARK: - SQLite

  private func sqlite(in directory: URL, into report: inout Report) throws(BenchmarkError) {
    let path = directory.appendingPathComponent("store.sqlite").path
    let storage = try Self.attempt("creating the SQLite store") { () throws(StockStorageError) in
      try SQLiteStockStorage(path: path, fruits: Self.fruits, durability: .normal)
    }
    let filled = ContinuousClock.now
    try Self.attempt("filling the SQLite store") { () throws(StockStorageError) in
      try storage.execute(Self.sqliteFill, purpose: "filling the store")
    }
    Report.note(
      "report.sqlite: \(Self.entries) entries written in \(Self.milliseconds(since: filled)) ms")
    try measureReport("report.sqlite.by_hour", storage, into: &report)
    try backupWhileOrdering(
      "report.sqlite.backup_while_4_shops_order",
      open: { () throws(StockStorageError) in
        try SQLiteStockStorage(path: path, fruits: Self.fruits, durability: .normal)
      },
      backup: { () throws(StockStorageError) in
        try SQLiteStockStorage.backup(
          store: path, to: directory.appendingPathComponent("backup.sqlite").path)
      }, into: &report)
  }

  /// One statement that writes the entries: `sequence` is the row number.
  static let sqliteFill = """
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(entries))
    INSERT INTO journal (request_id, time, editor, action, subject, count, outcome, shortages,
      changes, price, currency, used)
    SELECT 'fill-' || i, 1764547200 - 2592000 + i * 2.592, 'shop-' || (i % 4),
      CASE WHEN i % 10 = 0 THEN 'add' ELSE 'order' END,
      CASE WHEN i % 10 = 0 THEN 'kiwi' ELSE 'juice-' || (i % 7) END, 1,
      CASE WHEN i % 10 <> 0 AND i % 20 = 7 THEN 'refused' ELSE 'done' END,
      CASE WHEN i % 10 <> 0 AND i % 20 = 7 THEN '[["kiwi",3,1]]' END,
      CASE WHEN i % 10 = 0 THEN '[["kiwi",1,2]]' WHEN i % 20 = 7 THEN '[]'
        ELSE '[["kiwi",4,1]]' END,
      CASE WHEN i % 10 = 0 THEN NULL ELSE 4500 END,
      CASE WHEN i % 10 = 0 THEN NULL ELSE 'KRW' END,
      CASE WHEN i % 10 = 0 OR i % 20 = 7 THEN 0 ELSE 3 END
    FROM n
    """

  // MARK: - PostgreSQL

  private func postgres(in directory: URL, into report: inout Report) throws(BenchmarkError) {
    let server: TemporaryServer
    do {
      server = try TemporaryServer.start()
    } catch {
      throw .failed("cannot start PostgreSQL: \(error)")
    }
    defer { server.stop() }
    let database: String
    do {
      database = try server.createDatabase()
    } catch {
      throw .failed("cannot create a database: \(error)")
    }
    let uri = server.socketURI(database: database)
    let storage = try Self.attempt("creating the PostgreSQL store") {
      () throws(StockStorageError) in
      try PostgresStockStorage(uri: uri, fruits: Self.fruits)
    }
    let filled = ContinuousClock.now
    do {
      _ = try server.sql(Self.postgresFill, database: database)
      _ = try server.sql("VACUUM ANALYZE journal", database: database)
    } catch {
      throw .failed("cannot fill the PostgreSQL store: \(error)")
    }
    Report.note(
      "report.postgres: \(Self.entries) entries written in \(Self.milliseconds(since: filled)) ms")
    try measureReport("report.postgres.by_hour", storage, into: &report)
    try backupWhileOrdering(
      "report.postgres.backup_while_4_shops_order",
      open: { () throws(StockStorageError) in
        try PostgresStockStorage(uri: uri, fruits: Self.fruits)
      },
      backup: { () throws(StockStorageError) in
        try PostgresStockStorage.export(
          uri: uri, to: directory.appendingPathComponent("backup.jsonl").path)
      }, into: &report)
  }

  static let postgresFill = """
    INSERT INTO journal (request_id, time, editor, action, subject, count, outcome, shortages,
      changes, price, currency, used)
    SELECT 'fill-' || i, to_timestamp(1764547200 - 2592000 + i * 2.592), 'shop-' || (i % 4),
      CASE WHEN i % 10 = 0 THEN 'add' ELSE 'order' END,
      CASE WHEN i % 10 = 0 THEN 'kiwi' ELSE 'juice-' || (i % 7) END, 1,
      CASE WHEN i % 10 <> 0 AND i % 20 = 7 THEN 'refused' ELSE 'done' END,
      CASE WHEN i % 10 <> 0 AND i % 20 = 7 THEN '[["kiwi",3,1]]'::jsonb END,
      CASE WHEN i % 10 = 0 THEN '[["kiwi",1,2]]' WHEN i % 20 = 7 THEN '[]'
        ELSE '[["kiwi",4,1]]' END::jsonb,
      CASE WHEN i % 10 = 0 THEN NULL ELSE 4500 END,
      CASE WHEN i % 10 = 0 THEN NULL ELSE 'KRW' END,
      CASE WHEN i % 10 = 0 OR i % 20 = 7 THEN 0 ELSE 3 END
    FROM generate_series(1, \(entries)) AS i
    """

  // MARK: - Measuring

  private func measureReport(
    _ name: String, _ storage: some StockStorage, into report: inout Report
  ) throws(BenchmarkError) {
    let query = ReportQuery(by: .hour, utcOffset: 9 * 3600)
    var values: [Double] = []
    var rows: [ReportRow] = []
    for _ in 0..<(options.quick ? 3 : 7) {
      let start = ContinuousClock.now
      rows = try Self.attempt("counting the report") { () throws(StockStorageError) in
        try storage.report(query)
      }
      values.append(Self.milliseconds(since: start))
    }
    let made = rows.reduce(0) { $0 + $1.made }
    // 9 in 10 are orders, 1 in 20 of all entries a refusal.
    guard rows.count >= 720, made == Self.entries * 9 / 10 - Self.entries / 20 else {
      throw .failed("\(name): \(rows.count) hours and \(made) juices made is not the store")
    }
    report.record(Figure(name, .milliseconds, Samples(values), goal: .atMost(500)))
  }

  private func backupWhileOrdering(
    _ name: String, open: @escaping @Sendable () throws(StockStorageError) -> any StockStorage,
    backup: () throws(StockStorageError) -> Void, into report: inout Report
  ) throws(BenchmarkError) {
    let catalog: Catalog
    do {
      catalog = try Catalog(
        fruits: Self.fruits,
        juices: [
          Juice(
            id: "kiwi-banana-juice",
            ingredients: [
              Ingredient(fruit: "kiwi", count: 1), Ingredient(fruit: "banana", count: 1),
            ])
        ])
    } catch {
      throw .failed("the benchmark menu is invalid: \(error)")
    }
    let stop = Atomic<Bool>(false)
    let failed = Atomic<Int>(0)
    let made = Atomic<Int>(0)
    let group = DispatchGroup()
    for shop in 0..<Self.shops {
      group.enter()
      Thread {
        defer { group.leave() }
        guard let storage = try? open() else {
          failed.add(1, ordering: .relaxed)
          return
        }
        let juiceMaker = JuiceMaker(
          name: "shop-\(shop)", catalog: catalog, store: FruitStore(storage: storage))
        while !stop.load(ordering: .relaxed) {
          do throws(JuiceMakerError) {
            try juiceMaker.make("kiwi-banana-juice")
            made.add(1, ordering: .relaxed)
          } catch {
            if case .outOfStock = error { continue }
            failed.add(1, ordering: .relaxed)
          }
        }
      }.start()
    }
    // The shops order for a while before the backup and during it.
    Thread.sleep(forTimeInterval: 0.3)
    let start = ContinuousClock.now
    let outcome = Result { () throws(StockStorageError) in try backup() }
    let took = Self.milliseconds(since: start)
    Thread.sleep(forTimeInterval: 0.2)
    stop.store(true, ordering: .relaxed)
    group.wait()
    if case .failure(let error) = outcome {
      throw .failed("\(name): the backup failed: \(error)")
    }
    Report.note(
      "\(name): the backup took \(Int(took)) ms while the shops made"
        + " \(made.load(ordering: .relaxed)) juices")
    report.record(
      Figure(
        "\(name).failed_orders", .count, Samples([Double(failed.load(ordering: .relaxed))]),
        goal: .atMost(0)))
  }

  private static func attempt<Value>(
    _ purpose: String, _ body: () throws(StockStorageError) -> Value
  ) throws(BenchmarkError) -> Value {
    do {
      return try body()
    } catch {
      throw .failed("\(purpose): \(error)")
    }
  }

  private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000
      + Double(elapsed.components.attoseconds) / 1e15
  }
}
