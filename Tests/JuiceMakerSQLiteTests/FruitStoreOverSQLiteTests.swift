import JuiceMakerKit
import JuiceMakerSQLite
import Synchronization
import Testing

/// `FruitStore` and `JuiceMaker` behave over SQLite exactly as in memory.
struct FruitStoreOverSQLiteTests {
  /// What one step of a script did: its result or error, and the stock after it.
  struct Step: Equatable {
    let outcome: String
    let stock: [Fruit.ID: Int]
  }

  /// Runs the same orders and edits on a store, recording each step and every
  /// change observers saw.
  private func runScript(on store: FruitStore, catalog: Catalog) -> ([Step], [StockChange]) {
    let shop = JuiceMaker(name: "downtown", catalog: catalog, store: store)
    let seen = Mutex<[StockChange]>([])
    let observation = store.observe { change in seen.withLock { $0.append(change) } }
    defer { observation.cancel() }
    let actions: [() throws -> String] = [
      { "\(try shop.make("banana-juice"))" },
      { "\(try shop.make("strawberry-juice"))" },
      { "\(try shop.make("strawberry-banana-juice"))" },
      { "\(try shop.make("strawberry-banana-juice"))" },
      { "\(try shop.makeableCount(of: "kiwi-juice"))" },
      { "\(try store.add(5, of: "kiwi"))" },
      { "\(try store.remove(3, of: "kiwi"))" },
      { "\(try store.remove(100, of: "kiwi"))" },
      { "\(try store.setStock(7, of: "banana"))" },
      { "\(try store.add(-1, of: "kiwi"))" },
      { "\(try store.add(1, of: "mango"))" },
      { "\(try shop.restock(4, of: "strawberry"))" },
      { "\(try shop.make("kiwi-juice", count: 4))" },
      { "\(try shop.make("kiwi-juice", count: 5))" },
    ]
    var steps: [Step] = []
    for action in actions {
      let outcome: String
      do {
        outcome = try action()
      } catch {
        outcome = "error: \(error)"
      }
      steps.append(Step(outcome: outcome, stock: (try? store.snapshot()) ?? [:]))
    }
    // Request ids are random; the rest of each change must match.
    return (
      steps,
      seen.withLock { $0 }.map {
        StockChange(
          operation: StockOperation(
            id: "x", editor: $0.operation.editor, action: $0.operation.action),
          levels: $0.levels)
      }
    )
  }

  @Test func sameSemanticsAsInMemory() throws {
    let directory = try TemporaryDirectory()
    let catalog = try Fixtures.catalog()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: catalog.fruits)
    let persistent = runScript(on: FruitStore(storage: storage), catalog: catalog)
    let inMemory = runScript(on: FruitStore(catalog: catalog), catalog: catalog)
    #expect(persistent.0 == inMemory.0)
    #expect(persistent.1 == inMemory.1)
    #expect(persistent.0.contains { $0.outcome.contains("out of stock") })
    #expect(persistent.1.count == 6)

    let journal = try storage.journal()
    #expect(
      journal.reversed().map {
        "\($0.operation.action.name) \($0.operation.action.juice?.rawValue ?? $0.operation.action.fruit?.rawValue ?? "?") \($0.outcome.name)"
      } == [
        "order banana-juice done",
        "order strawberry-juice refused",
        "order strawberry-banana-juice done",
        "order strawberry-banana-juice refused",
        "add kiwi done",
        "remove kiwi done",
        "remove kiwi refused",
        "set banana done",
        "add strawberry done",
        "order kiwi-juice done",
        "order kiwi-juice refused",
      ])
    let initial = try storage.initialLevels()
    for (index, fruit) in storage.fruits.enumerated() {
      let sum = journal.map { $0.deltas[fruit] ?? 0 }.reduce(0, +)
      #expect(try storage.levels()[index] == (initial[fruit] ?? 0) + sum)
    }
  }

  @Test func shopsInTwoStoresOverOneFileShareStock() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let catalog = try Fixtures.catalog()
    let downtown = JuiceMaker(
      name: "downtown", catalog: catalog,
      store: FruitStore(storage: try SQLiteStockStorage(path: path, fruits: catalog.fruits)))
    let airport = JuiceMaker(
      name: "airport", catalog: catalog,
      store: FruitStore(storage: try SQLiteStockStorage(path: path, fruits: catalog.fruits)))
    try downtown.make("strawberry-banana-juice")
    #expect(try airport.makeableCount(of: "strawberry-banana-juice") == 0)
    #expect(
      throws: JuiceMakerError.outOfStock([Shortage(fruit: "strawberry", needed: 10, available: 0)])
    ) {
      try airport.make("strawberry-banana-juice")
    }
    #expect(try airport.store.stock(of: "banana") == 9)
  }
}
