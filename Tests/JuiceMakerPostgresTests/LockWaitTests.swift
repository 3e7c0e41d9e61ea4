import Foundation
import JuiceMakerKit
import TemporaryPostgres
import Testing

@testable import JuiceMakerPostgres

/// The built `juice-maker` while a second session (`psql`) holds what it needs: it gives up
/// within its lock timeout with exit 74, says that another session holds the rows or the
/// schema lock, and changes nothing.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct LockWaitTests {
  /// Operations on kiwi, each waiting for the kiwi row.
  static let kiwiOperations = [
    ["order", "kiwi-juice"], ["stock", "add", "kiwi", "1"], ["order", "mango-kiwi-juice"],
  ]

  @Test(arguments: kiwiOperations)
  func anOperationOnARowAnotherSessionHoldsEndsWith74AndChangesNothing(arguments: [String])
    async throws
  {
    let (server, uri, database) = try Postgres.newDatabase()
    let created = try await JuiceMakerRun.run(["init"], store: uri)
    #expect(created.status == 0, "\(created)")
    let before = try Self.contents(server, database)
    let holder = try HeldSession(
      server: server, database: database,
      holding: "BEGIN; SELECT level FROM stock WHERE fruit = 'kiwi' FOR UPDATE")
    defer { holder.release() }
    let outcome = try await JuiceMakerRun.run(
      arguments, store: uri + "&options=-c%20lock_timeout%3D1s", killAfter: .seconds(10))
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.stderr.contains("another session holds"), "\(outcome)")
    #expect(outcome.stderr.contains("stock row"), "\(outcome)")
    #expect(outcome.stderr.contains("kiwi"), "\(outcome)")
    #expect(outcome.stderr.contains("55P03"), "\(outcome)")
    #expect(outcome.elapsed < .seconds(8), "\(outcome.elapsed)")
    holder.release()
    #expect(try Self.contents(server, database) == before)
  }

  @Test func aStartOnANewDatabaseWhileAnotherSessionHoldsTheSchemaLockEndsWith74() async throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let holder = try HeldSession(
      server: server, database: database, holding: "SELECT pg_advisory_lock(\(0x4A4D_4B52))")
    defer { holder.release() }
    // The default wait, as a user gets it: 15 s; `init` is what creates a store.
    let outcome = try await JuiceMakerRun.run(["init"], store: uri, killAfter: .seconds(40))
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.stderr.contains("another session holds the schema lock"), "\(outcome)")
    #expect(outcome.elapsed > .seconds(14), "\(outcome.elapsed)")
    #expect(outcome.elapsed < .seconds(30), "\(outcome.elapsed)")
    holder.release()
    #expect(
      try server.sql(
        "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: database) == "0")
  }

  @Test func theLineShopSaysTheStoreIsBusyWhileAnotherSessionHoldsTheRowsAndOrdersOnce()
    async throws
  {
    let (server, uri, database) = try Postgres.newDatabase()
    let created = try await JuiceMakerRun.run(["init"], store: uri)
    #expect(created.status == 0, "\(created)")
    let holder = try HeldSession(
      server: server, database: database,
      holding: "BEGIN; SELECT level FROM stock WHERE fruit = 'banana' FOR UPDATE")
    defer { holder.release() }
    // Past the line shop's 5 s wait for a lock, within its 15 s of trying again; timed on
    // a thread of its own, as a task's sleep can be held up by other tests' tasks.
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 7)
      holder.release()
    }
    let outcome = try await JuiceMakerRun.run(
      ["--lang", "en", "shop", "--plain"], store: uri, input: "2\nq\n", killAfter: .seconds(40))
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr.contains("The store is busy, retrying…"), "\(outcome)")
    #expect(outcome.stdout.contains("Here is your Banana Juice. Enjoy!"), "\(outcome)")
    #expect(try Audit(uri).levels()["banana"] == 8, "made once")
  }

  // MARK: - The storage

  static let fruits = [Fruit(id: "kiwi", initialStock: 10), Fruit(id: "mango", initialStock: 10)]

  @Test func aLockTimeoutEndsTheOperationAtOnceSayingWhoHoldsTheRow() throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let storage = try PostgresStockStorage(
      uri: uri, fruits: Self.fruits, lockTimeout: .seconds(2))
    let holder = try HeldSession(
      server: server, database: database,
      holding: "BEGIN; SELECT level FROM stock WHERE fruit = 'kiwi' FOR UPDATE")
    defer { holder.release() }
    let started = ContinuousClock.now
    let error = #expect(throws: StockStorageError.self) {
      try storage.perform(
        StockOperation(editor: "test", action: .add("kiwi", count: 1)), touching: [0]
      ) { levels in
        levels[0] += 1
        return .done
      }
    }
    let elapsed = ContinuousClock.now - started
    guard case .unavailable(_, let cause) = error else {
      Issue.record("expected .unavailable, got \(String(describing: error))")
      return
    }
    #expect(cause.code == "55P03")
    #expect(cause.message.hasPrefix("another session holds the stock row of kiwi"), "\(cause)")
    // Tried once: a second try would wait another 2 s.
    #expect(elapsed > .seconds(2) && elapsed < .milliseconds(3900), "\(elapsed)")
    holder.release()
    #expect(try Audit(uri).journalCount() == 0)
    #expect(try storage.levels() == [10, 10])
  }

  @Test func aStatementTimeoutEndsTheOperationAtOnceToo() throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let storage = try PostgresStockStorage(
      uri: uri, fruits: Self.fruits, lockTimeout: .seconds(60),
      statementTimeout: .milliseconds(1500))
    let holder = try HeldSession(
      server: server, database: database,
      holding: "BEGIN; SELECT level FROM stock WHERE fruit = 'mango' FOR UPDATE")
    defer { holder.release() }
    let started = ContinuousClock.now
    let error = #expect(throws: StockStorageError.self) {
      try storage.perform(
        StockOperation(editor: "test", action: .remove("mango", count: 1)), touching: [0, 1]
      ) { levels in
        levels[1] -= 1
        return .done
      }
    }
    let elapsed = ContinuousClock.now - started
    #expect(error?.cause.code == "57014", "\(String(describing: error))")
    #expect(
      error?.cause.message.contains("another session may hold one of the stock rows of kiwi, mango")
        == true, "\(String(describing: error))")
    #expect(elapsed < .milliseconds(2900), "\(elapsed)")
    holder.release()
    #expect(try storage.levels() == [10, 10])
  }

  @Test func openingANewDatabaseWaitsForTheSchemaLockAtMostTheLockTimeout() throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let holder = try HeldSession(
      server: server, database: database, holding: "SELECT pg_advisory_lock(\(Schema.lockKey))")
    defer { holder.release() }
    let started = ContinuousClock.now
    let error = #expect(throws: StockStorageError.self) {
      try PostgresStockStorage(uri: uri, fruits: Self.fruits, lockTimeout: .milliseconds(500))
    }
    #expect(ContinuousClock.now - started < .seconds(5))
    guard case .unavailable(_, let cause) = error else {
      Issue.record("expected .unavailable, got \(String(describing: error))")
      return
    }
    #expect(cause.code == "55P03")
    #expect(cause.message.hasPrefix("another session holds the schema lock"), "\(cause)")
    holder.release()
    #expect(try Audit(uri).tables() == [])
    #expect(try PostgresStockStorage(uri: uri, fruits: Self.fruits).levels() == [10, 10])
  }

  @Test func theTimeoutsReachTheServerAndTheURIsOwnWin() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    func settings(_ uri: String) throws -> [String] {
      let connection = try Connection(
        uri: ConnectionURI(uri), connectTimeout: .seconds(5),
        timeouts: SessionTimeouts(lock: .seconds(15), statement: .milliseconds(30_500)))
      return try ["lock_timeout", "statement_timeout", "idle_in_transaction_session_timeout"].map {
        try #require(try connection.execute("SHOW \($0)").text(0, 0))
      }
    }
    #expect(try settings(uri) == ["15s", "30500ms", "30500ms"])
    #expect(
      try settings(uri + "&options=-c%20lock_timeout%3D50") == ["50ms", "30500ms", "30500ms"])
    #expect(
      try settings(uri + "&options=-c%20statement_timeout%3D2s%20-c%20lock_timeout%3D1min")
        == ["1min", "2s", "30500ms"])
  }

  /// Every stock row and journal entry, as text, whatever columns the tables have.
  static func contents(_ server: TemporaryServer, _ database: String) throws -> String {
    try server.sql("SELECT to_jsonb(s)::text FROM stock s ORDER BY s.id", database: database)
      + "\n"
      + server.sql(
        "SELECT to_jsonb(j)::text FROM journal j ORDER BY j.sequence", database: database)
  }
}
