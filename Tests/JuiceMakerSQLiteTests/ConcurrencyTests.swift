import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Synchronization
import Testing

/// Many threads ordering through several connections to one store file.
struct ConcurrencyTests {
  @Test(arguments: SQLiteStockStorage.Durability.allCases)
  func eightThreadsThroughTwoStoragesConserveStock(durability: SQLiteStockStorage.Durability)
    throws
  {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let catalog = try Catalog(
      fruits: [
        Fruit(id: "strawberry", initialStock: 900), Fruit(id: "banana", initialStock: 5000),
      ],
      juices: [
        Juice(
          id: "mix",
          ingredients: [
            Ingredient(fruit: "strawberry", count: 3), Ingredient(fruit: "banana", count: 1),
          ])
      ])
    let storages = try (0..<2).map { _ in
      try SQLiteStockStorage(path: path, fruits: catalog.fruits, durability: durability)
    }
    let shops = storages.enumerated().map { index, storage in
      JuiceMaker(name: "shop-\(index)", catalog: catalog, store: FruitStore(storage: storage))
    }
    let threads = 8
    let ordersPerThread = 60
    let successes = Mutex(0)
    let refusals = Mutex(0)
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    for thread in 0..<threads {
      let shop = shops[thread % shops.count]
      group.enter()
      Thread {
        defer { group.leave() }
        for _ in 0..<ordersPerThread {
          do {
            try shop.make("mix")
            successes.withLock { $0 += 1 }
          } catch JuiceMakerError.outOfStock {
            refusals.withLock { $0 += 1 }
          } catch {
            failures.withLock { $0.append("\(error)") }
          }
        }
      }.start()
    }
    group.wait()

    let made = successes.withLock { $0 }
    #expect(failures.withLock { $0 }.isEmpty)
    #expect(made + refusals.withLock { $0 } == threads * ordersPerThread)
    #expect(made == 300)
    let levels = try storages[1].levels()
    #expect(levels == [900 - 3 * made, 5000 - made])
    let journal = try storages[0].journal()
    #expect(journal.count == threads * ordersPerThread)
    #expect(journal.filter { $0.outcome == .done }.count == made)
    let strawberries = journal.map { $0.deltas["strawberry"] ?? 0 }.reduce(0, +)
    let bananas = journal.map { $0.deltas["banana"] ?? 0 }.reduce(0, +)
    #expect(strawberries == -3 * made)
    #expect(bananas == -made)
    #expect(Set(journal.map(\.operation.editor)) == ["shop-0", "shop-1"])
  }

  @Test func storagesOpeningANewStoreAtOnceCreateItOnce() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("new/store.sqlite")
    let opened = Mutex<[String: [Int]]>([:])
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    for thread in 0..<8 {
      group.enter()
      Thread {
        defer { group.leave() }
        // Each opener holds its own fruit and the shared banana.
        do {
          let fruits = [
            Fruit(id: "banana", initialStock: 5),
            Fruit(id: try Fruit.ID(validating: "fruit-\(thread)"), initialStock: thread),
          ]
          let storage = try SQLiteStockStorage(path: path, fruits: fruits)
          let levels = try storage.levels()
          opened.withLock { $0["fruit-\(thread)"] = levels }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }.start()
    }
    group.wait()
    #expect(failures.withLock { $0 }.isEmpty)
    #expect(
      opened.withLock { $0 }
        == Dictionary(uniqueKeysWithValues: (0..<8).map { ("fruit-\($0)", [5, $0]) }))
    let storage = try SQLiteStockStorage(path: path, fruits: [])
    var expected: [Fruit.ID: Int] = ["banana": 5]
    for thread in 0..<8 {
      expected[try Fruit.ID(validating: "fruit-\(thread)")] = thread
    }
    #expect(try storage.initialLevels() == expected)
  }
}
