import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import Synchronization
import Testing

/// A store observing PostgreSQL sees what another process does.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct LiveChangesTests {
  @Test func anObserverSeesAnotherProcesssOrderWithinOneSecond() async throws {
    let (_, uri, _) = try Postgres.newDatabase()
    // Creates the store with the shipped fruits.
    try await JuiceMakerRun.initialize(uri)
    let catalog = try Catalog.load(from: JuiceMakerRun.root.appending(path: "Recipes"))
    let store = FruitStore(storage: try PostgresStockStorage(uri: uri, fruits: catalog.fruits))
    let seen = Mutex<(StockChange, ContinuousClock.Instant)?>(nil)
    let observation = store.observe { change in
      seen.withLock { if $0 == nil { $0 = (change, .now) } }
    }
    defer { observation.cancel() }
    // Give the watcher time to start listening.
    try await Task.sleep(for: .milliseconds(500))
    let ordered = try await JuiceMakerRun.run(
      ["--shop", "airport", "order", "strawberry-banana-juice"], store: uri)
    #expect(ordered.status == 0, "\(ordered)")
    let finished = ContinuousClock.now
    while seen.withLock({ $0 == nil }), ContinuousClock.now - finished < .seconds(10) {
      try await Task.sleep(for: .milliseconds(10))
    }
    let (change, when) = try #require(seen.withLock { $0 })
    #expect(when - finished < .seconds(1))
    #expect(change.operation.editor == "airport")
    #expect(change.operation.action == .order("strawberry-banana-juice", count: 1))
    #expect(
      change.levels == [
        StockChange.Level(fruit: "strawberry", before: 10, after: 0),
        StockChange.Level(fruit: "banana", before: 10, after: 9),
      ])
  }
}
