/// The one shared stock of fruit, safe to use from any thread.
///
/// Any number of `JuiceMaker` shops share one store by reference. Every public
/// operation is one critical section in which the check and the change happen
/// together, so shops never oversell and stock never goes negative.
///
/// ```swift
/// let store = FruitStore(catalog: catalog)
/// try store.add(5, of: "kiwi")
/// print(store.stock(of: "kiwi"))
/// // 15
/// ```
///
/// A store keeps its levels in memory unless it is created over another
/// `StockStorage`, such as the SQLite storage of `JuiceMakerSQLite`. Over persistent
/// storage, `stock(of:)` and `snapshot()` read the storage, and fall back to the
/// levels last read when it cannot be read; `refresh()` reports such failures.
public final class FruitStore: Sendable {
  /// The fruits the store holds, in level order.
  public let fruits: [Fruit.ID]
  let indices: [Fruit.ID: Int]
  let storage: any StockStorage
  /// The same storage when it is in memory, for the lock-only fast path.
  let memory: InMemoryStockStorage?
  let observers = ObserverRegistry()
  /// The levels last read from persistent storage.
  private let lastRead: SpinLocked<[Int]>

  /// Creates an in-memory store holding each fruit's initial stock from the catalog.
  public convenience init(catalog: Catalog) {
    let fruits = catalog.fruits.map(\.id)
    self.init(
      validated: InMemoryStockStorage(fruits: fruits, levels: catalog.fruits.map(\.initialStock)),
      levels: catalog.fruits.map(\.initialStock))
  }

  /// Creates an in-memory store with the given levels, its fruits in id order.
  ///
  /// - Throws: `FruitStoreError.negativeQuantity` when a level is negative.
  public convenience init(stock: [Fruit.ID: Int]) throws(FruitStoreError) {
    let sorted = stock.sorted { $0.key < $1.key }
    if let negative = sorted.first(where: { $0.value < 0 }) {
      throw .negativeQuantity(negative.value, fruit: negative.key)
    }
    let storage = InMemoryStockStorage(fruits: sorted.map(\.key), levels: sorted.map(\.value))
    self.init(validated: storage, levels: sorted.map(\.value))
  }

  /// Creates a store over the given storage.
  ///
  /// - Parameter storage: Where the levels live; it may be shared with other
  ///   processes.
  /// - Throws: `FruitStoreError.storage` when the storage cannot be read.
  public convenience init(storage: any StockStorage) throws(FruitStoreError) {
    let levels: [Int]
    do {
      levels = try storage.levels()
    } catch {
      throw .storage(error)
    }
    self.init(validated: storage, levels: levels)
  }

  private init(validated storage: any StockStorage, levels: [Int]) {
    self.storage = storage
    self.memory = storage as? InMemoryStockStorage
    self.fruits = storage.fruits
    var indices: [Fruit.ID: Int] = [:]
    for (index, fruit) in storage.fruits.enumerated() {
      indices[fruit] = index
    }
    self.indices = indices
    self.lastRead = SpinLocked(levels)
  }

  // MARK: - Reading

  /// The stock of a fruit; 0 for a fruit the store does not hold.
  public func stock(of fruit: Fruit.ID) -> Int {
    guard let index = indices[fruit] else { return 0 }
    if let memory {
      return memory.state.withLock { $0[index] }
    }
    return currentLevels()[index]
  }

  /// Every fruit's stock, taken at one instant.
  public func snapshot() -> [Fruit.ID: Int] {
    Dictionary(uniqueKeysWithValues: zip(fruits, currentLevels()))
  }

  /// Every level in the order of `fruits`, taken at one instant.
  public func levels() -> [Int] {
    currentLevels()
  }

  /// Reads the levels again from persistent storage.
  ///
  /// - Returns: Every level in the order of `fruits`.
  /// - Throws: `FruitStoreError.storage` when the storage cannot be read.
  @discardableResult
  public func refresh() throws(FruitStoreError) -> [Int] {
    do {
      let levels = try storage.levels()
      lastRead.withLock { $0 = levels }
      return levels
    } catch {
      throw .storage(error)
    }
  }

  private func currentLevels() -> [Int] {
    if let memory {
      return memory.state.withLock { $0 }
    }
    return (try? refresh()) ?? lastRead.withLock { $0 }
  }

  // MARK: - Editing

  /// Adds fruit to the stock.
  ///
  /// - Parameters:
  ///   - count: How many to add; 0 changes nothing.
  ///   - fruit: The fruit.
  ///   - editor: Who made the edit, for the journal of persistent storage.
  /// - Returns: The new stock of the fruit.
  /// - Throws: `FruitStoreError` for an unknown fruit, a negative count, or a sum that
  ///   would overflow; nothing changes then.
  @discardableResult
  public func add(_ count: Int, of fruit: Fruit.ID, by editor: String = "store")
    throws(FruitStoreError) -> Int
  {
    try edit(.add, count, of: fruit, by: editor) { level throws(FruitStoreError) in
      let (sum, overflow) = level.addingReportingOverflow(count)
      guard !overflow else { throw .overflow(fruit: fruit, stock: level, amount: count) }
      return sum
    }
  }

  /// Removes fruit from the stock; the stock never goes below zero.
  ///
  /// - Parameters:
  ///   - count: How many to remove; 0 changes nothing.
  ///   - fruit: The fruit.
  ///   - editor: Who made the edit, for the journal of persistent storage.
  /// - Returns: The new stock of the fruit.
  /// - Throws: `FruitStoreError.insufficientStock` when the store holds fewer than
  ///   `count`, or another `FruitStoreError`; nothing changes then.
  @discardableResult
  public func remove(_ count: Int, of fruit: Fruit.ID, by editor: String = "store")
    throws(FruitStoreError) -> Int
  {
    try edit(.remove, count, of: fruit, by: editor) { level throws(FruitStoreError) in
      guard level >= count else {
        throw .insufficientStock(Shortage(fruit: fruit, needed: count, available: level))
      }
      return level - count
    }
  }

  /// Sets a fruit's stock.
  ///
  /// - Parameters:
  ///   - count: The new stock.
  ///   - fruit: The fruit.
  ///   - editor: Who made the edit, for the journal of persistent storage.
  /// - Throws: `FruitStoreError` for an unknown fruit or a negative count; nothing
  ///   changes then.
  public func setStock(_ count: Int, of fruit: Fruit.ID, by editor: String = "store")
    throws(FruitStoreError)
  {
    _ = try edit(.set, count, of: fruit, by: editor) { _ in count }
  }

  private func edit(
    _ kind: StockOperation.Kind, _ count: Int, of fruit: Fruit.ID, by editor: String,
    _ newLevel: (Int) throws(FruitStoreError) -> Int
  ) throws(FruitStoreError) -> Int {
    guard count >= 0 else { throw .negativeQuantity(count, fruit: fruit) }
    guard let index = indices[fruit] else { throw .unknownFruit(fruit) }
    let operation = StockOperation(kind: kind, shop: editor, subject: fruit.rawValue, count: count)
    let outcome: Result<Int, FruitStoreError> = try perform(operation) { levels in
      do throws(FruitStoreError) {
        let level = try newLevel(levels[index])
        levels[index] = level
        return (.success(level), .done)
      } catch {
        if case .insufficientStock = error { return (.failure(error), .refused) }
        return (.failure(error), .rejected)
      }
    }
    return try outcome.get()
  }

  // MARK: - Observing

  /// Registers an observer of every stock change.
  ///
  /// The observer is called once for each operation that changes at least one
  /// level, on the thread that performed it, after the store's lock is released.
  /// Changes made by other processes sharing persistent storage are not observed.
  ///
  /// - Parameter handler: Called with each change.
  /// - Returns: The observation; the observer stays registered until it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @Sendable (StockChange) -> Void) -> StockObservation {
    StockObservation(registry: observers, id: observers.add(handler))
  }

  /// Every stock change from now on, as an asynchronous sequence.
  ///
  /// The observation ends when the consumer stops iterating.
  public func changes() -> AsyncStream<StockChange> {
    let (stream, continuation) = AsyncStream.makeStream(of: StockChange.self)
    let observation = observe { continuation.yield($0) }
    continuation.onTermination = { _ in observation.cancel() }
    return stream
  }

  // MARK: - Operations

  /// Runs one atomic operation on the storage and tells observers what changed.
  func perform<Result>(
    _ operation: StockOperation,
    _ body: (inout [Int]) -> (Result, StockOutcome)
  ) throws(FruitStoreError) -> Result {
    let observing = observers.isActive
    var changed: [StockChange.Level] = []
    var latest: [Int]?
    let persistent = memory == nil
    let result: Result
    do {
      result = try storage.perform(operation) { levels in
        let before = observing ? levels : []
        let outcome = body(&levels)
        if observing {
          for index in levels.indices where levels[index] != before[index] {
            changed.append(
              StockChange.Level(fruit: fruits[index], before: before[index], after: levels[index]))
          }
        }
        if persistent { latest = levels }
        return outcome
      }
    } catch {
      throw .storage(error)
    }
    if let latest { lastRead.withLock { $0 = latest } }
    if !changed.isEmpty {
      observers.notify(StockChange(operation: operation, levels: changed))
    }
    return result
  }
}
