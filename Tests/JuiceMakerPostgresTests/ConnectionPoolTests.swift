import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import Synchronization
import TemporaryPostgres
import Testing

/// Concurrent shops on one `PostgresStockStorage` run on connections of their own.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct ConnectionPoolTests {
  static let fruits = [
    Fruit(id: "banana", initialStock: 10), Fruit(id: "kiwi", initialStock: 10),
  ]

  @Test func anOrderOnOneFruitDoesNotWaitForAnotherFruitsHeldRow() async throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let store = FruitStore(storage: try PostgresStockStorage(uri: uri, fruits: Self.fruits))
    // Another session holds banana's row until it is ended.
    let command = server.psqlCommand(
      "BEGIN; SELECT level FROM stock WHERE fruit = 'banana' FOR UPDATE; SELECT pg_sleep(60)",
      database: database)
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: command[0])
    holder.arguments = Array(command.dropFirst())
    holder.standardOutput = FileHandle.nullDevice
    try holder.run()
    defer { if holder.isRunning { holder.terminate() } }
    let deadline = Date().addingTimeInterval(30)
    while try server.sql(
      "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' "
        + "AND state = 'active' AND pid <> pg_backend_pid()", database: database) == "0"
    {
      #expect(Date() < deadline, "the holding session did not start")
      if Date() >= deadline { return }
      try await Task.sleep(for: .milliseconds(20))
    }

    // A shop waits for banana on one connection of the storage...
    let bananaDone = Atomic<Bool>(false)
    let banana = Thread {
      _ = try? store.add(1, of: "banana", by: "north")
      bananaDone.store(true, ordering: .releasing)
    }
    banana.start()
    try await Task.sleep(for: .milliseconds(200))
    let waited = !bananaDone.load(ordering: .acquiring)
    #expect(waited)
    // ...while another shop's kiwi goes through on another.
    let started = ContinuousClock.now
    try store.add(1, of: "kiwi", by: "south")
    #expect(ContinuousClock.now - started < .seconds(5))
    let stillWaiting = !bananaDone.load(ordering: .acquiring)
    #expect(stillWaiting)

    // psql's end alone leaves its backend asleep, holding the row.
    _ = try server.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        + "WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()", database: database)
    holder.waitUntilExit()
    for _ in 0..<500 where !bananaDone.load(ordering: .acquiring) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(try store.snapshot() == ["banana": 11, "kiwi": 11])
  }
}
