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

  @Test func theWatcherDeliversAnEntryThatAppearsBelowOneItHasRead() async throws {
    let inner = InMemoryStockStorage(fruits: ["kiwi", "mango"], levels: [10, 10])
    let storage = LateJournalStorage(inner)
    let store = FruitStore(storage: storage)
    let seen = Mutex<[StockChange]>([])
    let observation = store.observe { change in seen.withLock { $0.append(change) } }
    defer { observation.cancel() }

    // Another process: the first operation is numbered but commits after the second.
    let first = try inner.perform(
      StockOperation(editor: "north", action: .add("kiwi", count: 1)), touching: [0]
    ) { levels in
      levels[0] += 1
      return .done
    }
    storage.hide(first.entry.sequence)
    _ = try inner.perform(
      StockOperation(editor: "south", action: .add("mango", count: 2)), touching: [1]
    ) { levels in
      levels[1] += 2
      return .done
    }
    try await Self.wait { seen.withLock { $0.count } >= 1 }
    storage.reveal(first.entry.sequence)
    try await Self.wait { seen.withLock { $0.count } >= 2 }
    // Further reads of the window deliver nothing twice.
    try await Task.sleep(for: .milliseconds(350))
    #expect(seen.withLock { $0.map(\.operation.editor) } == ["south", "north"])
  }

  /// Polls `condition` for up to 5 s.
  private static func wait(until condition: () -> Bool) async throws {
    for _ in 0..<500 where !condition() {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(condition())
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

/// In-memory storage whose journal hides chosen entries, as a storage that numbers an
/// entry before it commits shows a newer entry first.
private final class LateJournalStorage: StockStorage {
  let inner: InMemoryStockStorage
  let hidden = Mutex<Set<Int64>>([])

  init(_ inner: InMemoryStockStorage) {
    self.inner = inner
  }

  func hide(_ sequence: Int64) { hidden.withLock { _ = $0.insert(sequence) } }
  func reveal(_ sequence: Int64) { hidden.withLock { _ = $0.remove(sequence) } }

  var fruits: [Fruit.ID] { inner.fruits }
  var location: String { inner.location }
  func levels() -> [Int] { inner.levels() }

  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) -> JournalEntry? {
    inner.transact(id, touching: touching, decide)
  }

  func journal(_ query: JournalQuery) -> [JournalEntry] {
    let hidden = self.hidden.withLock { $0 }
    return inner.journal(query).filter { !hidden.contains($0.sequence) }
  }

  func waitForChanges(timeout: Duration) { inner.waitForChanges(timeout: timeout) }
}
