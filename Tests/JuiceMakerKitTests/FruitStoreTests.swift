import JuiceMakerKit
import Synchronization
import Testing

struct FruitStoreTests {
  static let catalog: Catalog = {
    do {
      return try Catalog.load(from: Paths.recipes)
    } catch {
      fatalError("the shipped recipes must load: \(error)")
    }
  }()

  @Test func newStoreHoldsTheInitialStock() throws {
    let store = FruitStore(catalog: Self.catalog)
    #expect(
      try store.snapshot() == [
        "strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10,
      ])
    #expect(store.fruits == ["strawberry", "banana", "pineapple", "kiwi", "mango"])
  }

  @Test func addRemoveAndSetChangeOneFruit() throws {
    let store = FruitStore(catalog: Self.catalog)
    #expect(try store.add(5, of: "kiwi") == 15)
    #expect(try store.remove(3, of: "kiwi") == 12)
    try store.setStock(0, of: "mango")
    #expect(try store.stock(of: "kiwi") == 12)
    #expect(try store.stock(of: "mango") == 0)
    #expect(try store.stock(of: "banana") == 10)
  }

  @Test func removingMoreThanStockThrowsAndChangesNothing() throws {
    let store = FruitStore(catalog: Self.catalog)
    #expect(
      throws: FruitStoreError.insufficientStock(Shortage(fruit: "kiwi", needed: 11, available: 10))
    ) {
      try store.remove(11, of: "kiwi")
    }
    #expect(try store.stock(of: "kiwi") == 10)
  }

  @Test(arguments: [-1, Int.min])
  func negativeQuantitiesAreErrors(quantity: Int) throws {
    let store = FruitStore(catalog: Self.catalog)
    #expect(throws: FruitStoreError.negativeQuantity(quantity, fruit: "kiwi")) {
      try store.add(quantity, of: "kiwi")
    }
    #expect(throws: FruitStoreError.negativeQuantity(quantity, fruit: "kiwi")) {
      try store.remove(quantity, of: "kiwi")
    }
    #expect(throws: FruitStoreError.negativeQuantity(quantity, fruit: "kiwi")) {
      try store.setStock(quantity, of: "kiwi")
    }
    #expect(try store.stock(of: "kiwi") == 10)
  }

  @Test func addingPastIntMaxIsAnErrorNotATrap() throws {
    let store = FruitStore(catalog: Self.catalog)
    #expect(throws: FruitStoreError.overflow(fruit: "kiwi", stock: 10, amount: Int.max)) {
      try store.add(Int.max, of: "kiwi")
    }
    #expect(try store.stock(of: "kiwi") == 10)
  }

  @Test func unknownFruitIsAnErrorAndReadsAsZero() throws {
    let store = FruitStore(catalog: Self.catalog)
    #expect(throws: FruitStoreError.unknownFruit("durian")) { try store.add(1, of: "durian") }
    #expect(try store.stock(of: "durian") == 0)
  }

  @Test func storeFromADictionaryRejectsNegativeLevels() throws {
    let store = try FruitStore(stock: ["kiwi": 2, "apple": 1])
    #expect(store.fruits == ["apple", "kiwi"])
    #expect(throws: FruitStoreError.negativeQuantity(-1, fruit: "kiwi")) {
      try FruitStore(stock: ["kiwi": -1])
    }
  }

  @Test func observersSeeEachChangeExactlyOnce() throws {
    let store = FruitStore(catalog: Self.catalog)
    let seen = Mutex<[StockChange]>([])
    let observation = store.observe { change in seen.withLock { $0.append(change) } }
    let maker = JuiceMaker(name: "downtown", catalog: Self.catalog, store: store)

    try store.add(2, of: "kiwi", by: "clerk")
    try maker.make("mango-kiwi-juice")
    #expect(throws: JuiceMakerError.self) { try maker.make("strawberry-juice") }
    try store.setStock(12, of: "kiwi")  // 11 -> 12
    try store.setStock(12, of: "kiwi")  // no change, no event
    observation.cancel()
    try store.add(1, of: "kiwi")

    let changes = seen.withLock { $0 }
    #expect(changes.count == 3)
    #expect(changes.first?.operation.editor == "clerk")
    #expect(changes.first?.operation.action == .add("kiwi", count: 2))
    #expect(changes.first?.levels == [StockChange.Level(fruit: "kiwi", before: 10, after: 12)])
    #expect(changes.dropFirst().first?.operation.editor == "downtown")
    #expect(changes.dropFirst().first?.operation.action == .order("mango-kiwi-juice", count: 1))
    #expect(
      changes.dropFirst().first?.levels == [
        StockChange.Level(fruit: "kiwi", before: 12, after: 11),
        StockChange.Level(fruit: "mango", before: 10, after: 8),
      ])
    #expect(changes.last?.levels == [StockChange.Level(fruit: "kiwi", before: 11, after: 12)])
  }

  @Test func changesStreamDeliversEveryChange() async throws {
    let store = FruitStore(catalog: Self.catalog)
    let stream = store.changes()
    try store.add(1, of: "banana")
    try store.remove(4, of: "banana")
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    let second = await iterator.next()
    #expect(first?.levels == [StockChange.Level(fruit: "banana", before: 10, after: 11)])
    #expect(second?.levels == [StockChange.Level(fruit: "banana", before: 11, after: 7)])
  }
}
