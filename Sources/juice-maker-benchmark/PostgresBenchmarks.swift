import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import TemporaryPostgres

/// Durable orders per second over PostgreSQL, against `pgbench` running the same
/// transaction on the same server in the same run.
///
/// The benchmark starts its own server (`initdb` into a temporary directory, fsync and
/// `synchronous_commit` on, reached through its unix socket) and a menu of 32 fruits
/// with one juice each, so shop *k* can order a juice of its own fruit. Each shop is a
/// thread, and the shops share one store, as `juice-maker rush --threads` runs them: each
/// operation takes a connection of the storage's pool (at most 8). Shops start together
/// and order until the run ends.
/// `pgbench -M prepared` runs the storage's transaction: lock the fruit's row and look
/// the request id up, update the level and insert the journal row in one statement,
/// commit, notify.
struct PostgresBenchmarks {
  let options: Options
  static let fruitCount = 32

  func run(into report: inout Report) throws(BenchmarkError) {
    guard TemporaryServer.isInstalled else {
      Report.note("postgres: skipped, PostgreSQL is not installed")
      return
    }
    let server: TemporaryServer
    do {
      server = try TemporaryServer.start()
    } catch {
      throw .failed("cannot start PostgreSQL: \(error)")
    }
    defer { server.stop() }
    let catalog = try Self.menu()
    let database = try Self.prepareDatabase(on: server, catalog: catalog)
    let uri = server.socketURI(database: database)
    let duration: Duration = options.quick ? .seconds(2) : .seconds(4)
    let runs = options.quick ? 1 : 3

    var figures: [String: Figure] = [:]
    for (name, shops, hot) in [
      ("postgres.orders.1shop", 1, false), ("postgres.orders.8shops", 8, false),
      ("postgres.orders.32shops", 32, false), ("postgres.orders.8shops.hotFruit", 8, true),
    ] where options.wants(name) || options.wants("postgres.ratio") {
      var values: [Double] = []
      for _ in 0..<runs {
        values.append(
          try shopsRun(uri: uri, catalog: catalog, shops: shops, hot: hot, for: duration))
      }
      let figure = Figure(name, .ordersPerSecond, Samples(values))
      figures[name] = figure
      report.record(figure)
    }
    for (name, clients, hot) in [
      ("postgres.pgbench.8clients", 8, false), ("postgres.pgbench.8clients.hotFruit", 8, true),
    ] where options.wants(name) || options.wants("postgres.ratio") {
      var values: [Double] = []
      for _ in 0..<runs {
        values.append(
          try pgbench(server: server, database: database, clients: clients, hot: hot, for: duration)
        )
      }
      let figure = Figure(name, .ordersPerSecond, Samples(values))
      figures[name] = figure
      report.record(figure)
    }
    if let ours = figures["postgres.orders.8shops"],
      let theirs = figures["postgres.pgbench.8clients"]
    {
      report.record(
        .ratio("postgres.ratio.8shopsToPgbench", ours, theirs, goal: .atLeast(0.75)))
    }
    if let disjoint = figures["postgres.orders.8shops"],
      let hot = figures["postgres.orders.8shops.hotFruit"]
    {
      report.record(.ratio("postgres.ratio.ownFruitToHotFruit", disjoint, hot, goal: .atLeast(2)))
    }
  }

  /// The benchmark's menu: 32 fruits, each with a stock of a billion, and one juice of
  /// each, `juice-k` made of one `fruit-k`.
  static func menu() throws(BenchmarkError) -> Catalog {
    let fruits = (1...fruitCount).map { Fruit(id: fruitID($0), initialStock: 1_000_000_000) }
    do {
      return try Catalog(
        fruits: fruits,
        juices: (1...fruitCount).map {
          Juice(id: juiceID($0), ingredients: [Ingredient(fruit: fruitID($0), count: 1)])
        })
    } catch {
      throw .failed("the benchmark menu is invalid: \(error)")
    }
  }

  /// Creates a database on `server` holding `catalog`'s stock, the rows numbered 1…32.
  ///
  /// - Returns: The database's name.
  static func prepareDatabase(on server: TemporaryServer, catalog: Catalog) throws(BenchmarkError)
    -> String
  {
    let database: String
    do {
      database = try server.createDatabase()
      _ = try PostgresStockStorage(
        uri: server.socketURI(database: database), fruits: catalog.fruits)
      let ids = try server.sql(
        "SELECT string_agg(id::text, ',' ORDER BY id) FROM stock", database: database)
      guard ids == (1...Self.fruitCount).map(String.init).joined(separator: ",") else {
        throw BenchmarkError.failed("stock rows are not numbered 1…\(Self.fruitCount): \(ids)")
      }
    } catch let error as BenchmarkError {
      throw error
    } catch {
      throw .failed("cannot prepare the benchmark database: \(error)")
    }
    return database
  }

  private static func fruitID(_ number: Int) -> Fruit.ID {
    (try? Fruit.ID(validating: "fruit-\(number)")) ?? "kiwi"
  }

  private static func juiceID(_ number: Int) -> Juice.ID {
    (try? Juice.ID(validating: "juice-\(number)")) ?? "kiwi-juice"
  }

  /// Orders per second of `shops` threads sharing one store, as `juice-maker rush
  /// --threads` runs them (each operation on a connection of the storage's pool),
  /// ordering the juice of its own fruit (or all the first juice, `hot`) until
  /// `duration` ends.
  func shopsRun(
    uri: String, catalog: Catalog, shops count: Int, hot: Bool, for duration: Duration
  ) throws(BenchmarkError) -> Double {
    let store: FruitStore
    do {
      store = FruitStore(storage: try PostgresStockStorage(uri: uri, fruits: catalog.fruits))
    } catch {
      throw .failed("cannot open the store: \(error)")
    }
    let shops = (0..<count).map { index in
      (
        JuiceMaker(name: "shop-\(index)", catalog: catalog, store: store),
        catalog.juices[hot ? 0 : index % catalog.juices.count]
      )
    }
    let made = LockedCounter()
    let failures = LockedCounter()
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    let clock = ContinuousClock()
    for (shop, juice) in shops {
      group.enter()
      Thread {
        defer { group.leave() }
        start.wait()
        let deadline = clock.now + duration
        var count = 0
        while clock.now < deadline {
          do {
            try shop.make(juice)
            count += 1
          } catch {
            failures.add(1)
            return
          }
        }
        made.add(count)
      }.start()
    }
    let began = clock.now
    for _ in shops { start.signal() }
    group.wait()
    let elapsed = clock.now - began
    guard failures.value == 0 else { throw .wrongResult("\(failures.value) shops failed an order") }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(made.value) / seconds
  }

  /// Transactions per second of `pgbench -M prepared` running the storage's
  /// transaction with `clients` connections.
  private func pgbench(
    server: TemporaryServer, database: String, clients: Int, hot: Bool, for duration: Duration
  ) throws(BenchmarkError) -> Double {
    let script = """
      \\set f \(hot ? "1" : ":client_id % \(Self.fruitCount) + 1")
      \\set r random(1, 4000000000000000000)
      BEGIN;
      SELECT s.level AS level, (SELECT j.sequence FROM journal j WHERE j.request_id = 'pgbench-' || (:r)::text) AS seen FROM stock s WHERE s.id = ANY(ARRAY[:f]::bigint[]) ORDER BY s.fruit FOR UPDATE OF s \\gset
      \\set next :level - 1
      WITH changed AS (UPDATE stock SET level = v.level FROM unnest(ARRAY[:f]::bigint[], ARRAY[:next]::bigint[]) AS v(id, level) WHERE stock.id = v.id) INSERT INTO journal (request_id, editor, action, subject, count, expected, outcome, actual, shortages, changes) VALUES ('pgbench-' || (:r)::text, 'pgbench', 'order', 'juice-1', 1, NULL, 'done', NULL, NULL, '[["fruit-1",1,0]]'::jsonb) RETURNING sequence, extract(epoch FROM time)::text;
      COMMIT;
      SELECT pg_notify('juice_maker_changes', '1');

      """
    let scriptPath = FileManager.default.temporaryDirectory
      .appending(path: "juice-maker-pgbench-\(UUID().uuidString).sql").path
    defer { try? FileManager.default.removeItem(atPath: scriptPath) }
    let process = Process()
    let output = Pipe()
    do {
      try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
      process.executableURL = URL(fileURLWithPath: server.binaries + "/pgbench")
      process.arguments = [
        "-h", server.directory, "-p", String(server.port), "-U", server.user, "-n", "-M",
        "prepared", "-c", String(clients), "-j", "2", "-T",
        String(duration.components.seconds), "-f", scriptPath, database,
      ]
      process.standardOutput = output
      process.standardError = output
      try process.run()
    } catch {
      throw .failed("cannot run pgbench: \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let match = text.firstMatch(of: /tps = ([0-9.]+) \(without initial connection time\)/),
      let tps = Double(match.1)
    else {
      throw .failed("pgbench failed (status \(process.terminationStatus)): \(text)")
    }
    return tps
  }
}

/// A counter many threads add to.
private final class LockedCounter: Sendable {
  private let count = LockedValue(0)

  func add(_ amount: Int) {
    count.withLock { $0 += amount }
  }

  var value: Int { count.withLock { $0 } }
}
