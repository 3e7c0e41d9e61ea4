import Foundation
import JuiceMakerKit
import TemporaryPostgres
import Testing

@testable import JuiceMakerPostgres

/// Connections cut mid-operation and a server that crashes mid-rush: nothing is half
/// applied, nothing applied twice, and every client ends with success, a refusal or a clear
/// I/O error.
@Suite(.serialized, .enabled(if: Postgres.canRun, Postgres.skipReason))
struct FaultTests {
  static let fruits = [Fruit(id: "kiwi", initialStock: 100), Fruit(id: "mango", initialStock: 100)]

  @Test func aConnectionKilledBetweenTheLockAndTheCommitAppliesNothingHalfAndRetriesOnce()
    throws
  {
    let (server, uri, _) = try Postgres.newDatabase()
    let storage = try PostgresStockStorage(uri: uri, fruits: Self.fruits)
    let pid = storage.backendPID
    let runs = LockedValue(0)
    let receipt = try storage.perform(
      StockOperation(editor: "test", action: .add("kiwi", count: 5)), touching: [0, 1]
    ) { levels in
      if runs.withLock({
        $0 += 1; return $0
      }) == 1 {
        _ = try? server.sql("SELECT pg_terminate_backend(\(pid))")
      }
      levels[0] += 5
      levels[1] -= 1
      return .done
    }
    #expect(runs.withLock { $0 } == 2)
    #expect(receipt.replayed == false)
    let audit = try Audit(uri)
    #expect(try audit.levels() == ["kiwi": 105, "mango": 99])
    #expect(try audit.journalCount() == 1)
    #expect(storage.backendPID != pid)
  }

  @Test func aConnectionKilledAfterCommitWasSentReportsWhatReallyHappened() throws {
    let (server, uri, _) = try Postgres.newDatabase()
    let storage = try PostgresStockStorage(uri: uri, fruits: Self.fruits)
    for round in 1...5 {
      let pid = storage.backendPID
      storage.afterCommitSent { _ = try? server.sql("SELECT pg_terminate_backend(\(pid))") }
      let operation = StockOperation(editor: "test", action: .remove("kiwi", count: 1))
      let receipt = try storage.perform(operation, touching: [0]) { levels in
        levels[0] -= 1
        return .done
      }
      storage.afterCommitSent(nil)
      #expect(receipt.entry.id == operation.id)
      #expect(try storage.entry(for: operation.id) == receipt.entry)
      let audit = try Audit(uri)
      #expect(try audit.levels()["kiwi"] == 100 - round)
      #expect(try audit.journalCount() == round)
    }
  }

  @Test func aLongRunningShopReconnectsOnItsNextOperation() throws {
    let server = try TemporaryServer.start()
    defer { server.stop() }
    let database = try server.createDatabase()
    let uri = server.socketURI(database: database)
    let storage = try PostgresStockStorage(uri: uri, fruits: Self.fruits)
    try server.crash()
    #expect(throws: StockStorageError.self) { try storage.levels() }
    try server.restart()
    #expect(try storage.levels() == [100, 100])
  }

  @Test func shopsKilledAtRandomMomentsLeaveEveryLevelEqualToItsJournal() async throws {
    let (server, _, database) = try Postgres.newDatabase()
    let store = server.tcpURI(database: database)
    try await JuiceMakerRun.initialize(store)
    #expect(
      try await JuiceMakerRun.run(["stock", "set", "strawberry", "5000"], store: store).status == 0)
    var script = ""
    for order in 0..<400 {
      script += "\(order % 7 + 1)\nn\n"
      if order % 40 == 0 { script += "s\n+ banana 5\nc\n" }
    }
    let input = script + "q\n"
    var generator = SystemRandomNumberGenerator()
    let delays = (0..<6).map { _ in
      Duration.milliseconds(Int.random(in: 200...2500, using: &generator))
    }
    let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
      for (shop, delay) in delays.enumerated() {
        group.addTask {
          try await JuiceMakerRun.run(
            ["--shop", "k\(shop)", "shop"], store: store, input: input, killAfter: delay)
        }
      }
      return try await group.reduce(into: [Outcome]()) { $0.append($1) }
    }
    #expect(outcomes.contains { $0.status == 128 + SIGKILL }, "no shop was killed: \(delays)")
    for outcome in outcomes {
      #expect([0, 128 + SIGKILL].contains(outcome.status), "\(outcome)")
    }
    let audit = try Audit(server.socketURI(database: database))
    #expect(try audit.levels() == audit.journaledLevels())
    // The store still works, and no killed session holds a lock.
    let order = try await JuiceMakerRun.run(["order", "banana-juice"], store: store)
    #expect([0, 1].contains(order.status), "\(order)")
  }

  @Test func theServerStoppedMidRushLeavesEveryLevelEqualToItsJournal() async throws {
    let server = try TemporaryServer.start()
    defer { server.stop() }
    let database = try server.createDatabase()
    let store = server.tcpURI(database: database)
    try await JuiceMakerRun.initialize(store)
    #expect(
      try await JuiceMakerRun.run(["stock", "set", "strawberry", "2000"], store: store).status == 0)
    let clients = 6
    let outcomes = try await withThrowingTaskGroup(of: [Outcome].self) { group in
      for client in 0..<clients {
        group.addTask {
          var outcomes: [Outcome] = []
          for order in 0..<40 {
            outcomes.append(
              try await JuiceMakerRun.run(
                [
                  "--shop", "c\(client)", "order", "strawberry-banana-juice", "--request-id",
                  "c\(client)-\(order)",
                ], store: store))
          }
          return outcomes
        }
      }
      group.addTask {
        try await Task.sleep(for: .seconds(1.5))
        try server.crash()
        try await Task.sleep(for: .seconds(1))
        try server.restart()
        return []
      }
      return try await group.reduce(into: [Outcome]()) { $0 += $1 }
    }
    #expect(outcomes.count == clients * 40)
    for outcome in outcomes {
      #expect([0, 1, 74].contains(outcome.status), "\(outcome)")
      #expect(!outcome.stderr.contains(server.password))
      if outcome.status == 74 {
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome)")
        #expect(outcome.stderr.contains("postgresql://postgres:***@127.0.0.1"), "\(outcome)")
      }
    }
    #expect(outcomes.contains { $0.status == 74 }, "the crash should have cut some orders")
    let audit = try Audit(server.socketURI(database: database))
    #expect(try audit.levels() == audit.journaledLevels())
    // Every order that reported success is in the journal exactly once.
    let made = outcomes.filter { $0.status == 0 }.count
    let journaled = try audit.connection.execute(
      "SELECT count(*) FROM journal WHERE action = 'order' AND outcome = 'done'")
    #expect(Int(try #require(journaled.integer(0, 0))) >= made)
  }
}
