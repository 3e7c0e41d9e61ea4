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

  // Synchronous, so its waits are real time even while other tests hold the cooperative
  // threads.
  @Test func anOrderOnOneFruitDoesNotWaitForAnotherFruitsHeldRow() throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let store = FruitStore(storage: try PostgresStockStorage(uri: uri, fruits: Self.fruits))
    // Another session holds banana's row until it is released.
    let holder = try HeldSession(
      server: server, database: database,
      holding: "BEGIN; SELECT level FROM stock WHERE fruit = 'banana' FOR UPDATE")
    defer { holder.release() }

    // A shop waits for banana on one connection of the storage...
    let bananaDone = Atomic<Bool>(false)
    let banana = Thread {
      _ = try? store.add(1, of: "banana", by: "north")
      bananaDone.store(true, ordering: .releasing)
    }
    banana.start()
    Thread.sleep(forTimeInterval: 0.2)
    let waited = !bananaDone.load(ordering: .acquiring)
    #expect(waited)
    // ...while another shop's kiwi goes through on another.
    let started = ContinuousClock.now
    try store.add(1, of: "kiwi", by: "south")
    #expect(ContinuousClock.now - started < .seconds(5))
    let stillWaiting = !bananaDone.load(ordering: .acquiring)
    #expect(stillWaiting)

    holder.release()
    for _ in 0..<500 where !bananaDone.load(ordering: .acquiring) {
      Thread.sleep(forTimeInterval: 0.01)
    }
    #expect(try store.snapshot() == ["banana": 11, "kiwi": 11])
  }
}
