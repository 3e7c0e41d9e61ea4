import FoundationEssentials
public import JuiceMakerCatalog

/// The one shared stock of fruit, safe to use from any thread.
///
/// Any number of `JuiceMaker` shops share one store by reference. Every public
/// operation is one atomic operation of the store's `StockStorage`, in which the
/// check and the change happen together, so shops never oversell and stock never
/// goes negative.
///
/// ```swift
/// let store = FruitStore(catalog: catalog)
/// try store.add(5, of: "kiwi")
/// print(try store.stock(of: "kiwi"))
/// // 15
/// ```
///
/// A store keeps its levels in memory unless it is created over another
/// `StockStorage`, such as the SQLite storage of `JuiceMakerSQLite`. Reads go to the
/// storage every time, and throw when it cannot be read.
public final class FruitStore: Sendable {
  /// The fruits the store holds, in level order.
  public let fruits: [Fruit.ID]
  let indices: [Fruit.ID: Int]
  /// Where the levels and the journal live; the store reaches it only through
  /// `StockStorage`.
  @usableFromInline let storage: any StockStorage
  @usableFromInline let observers = ObserverRegistry()
  /// The levels of an in-memory storage that does not journal every order, reached on
  /// the order path without reference counting (a retain and release per order cost
  /// more than the order); the storage keeps them alive.
  @usableFromInline let sharedLevels: Unmanaged<SharedStockLevels>?
  /// The watcher thread's state, shared with the operations that deliver changes.
  private let watch = LockedValue(Watch())

  /// Creates an in-memory store holding each fruit's initial stock from the catalog.
  ///
  /// - Parameters:
  ///   - catalog: The fruits and their initial stock.
  ///   - journalsOrders: Whether every order and restock is journaled, as persistent
  ///     storages do; by default orders take the fast path, unjournaled unless
  ///     observed (see `InMemoryStockStorage`).
  public convenience init(catalog: Catalog, journalsOrders: Bool = false) {
    // A catalog's fruits are unique, with stock that is not negative.
    self.init(
      storage: InMemoryStockStorage(
        fruits: catalog.fruits.map(\.id), levels: catalog.fruits.map(\.initialStock),
        journalsOrders: journalsOrders))
  }

  /// Creates an in-memory store with the given levels, its fruits in id order.
  ///
  /// - Parameters:
  ///   - stock: Each fruit's level.
  ///   - journalsOrders: Whether every order and restock is journaled, as for
  ///     `init(catalog:journalsOrders:)`.
  /// - Throws: `FruitStoreError.negativeQuantity` when a level is negative.
  public convenience init(stock: [Fruit.ID: Int], journalsOrders: Bool = false)
    throws(FruitStoreError)
  {
    let sorted = stock.sorted { $0.key < $1.key }
    if let negative = sorted.first(where: { $0.value < 0 }) {
      throw .negativeQuantity(negative.value, fruit: negative.key)
    }
    self.init(
      storage: InMemoryStockStorage(
        fruits: sorted.map(\.key), levels: sorted.map(\.value), journalsOrders: journalsOrders))
  }

  /// Creates a store over the given storage.
  ///
  /// - Parameter storage: Where the levels and the journal live; it may be shared
  ///   with other stores and other processes.
  public init(storage: any StockStorage) {
    self.storage = storage
    self.sharedLevels = (storage as? InMemoryStockStorage).flatMap { memory in
      memory.journalsOrders ? nil : Unmanaged.passUnretained(memory.shared)
    }
    self.fruits = storage.fruits
    var indices: [Fruit.ID: Int] = [:]
    for (index, fruit) in storage.fruits.enumerated() {
      indices[fruit] = index
    }
    self.indices = indices
  }

  /// The store's name for messages: its file, its server, or `memory`.
  public var location: String { storage.location }

  /// The level index of a fruit, if the store holds it.
  public func index(of fruit: Fruit.ID) -> Int? {
    indices[fruit]
  }

  // MARK: - Reading

  /// The stock of a fruit; 0 for a fruit the store does not hold.
  ///
  /// - Throws: `FruitStoreError.storage` when the storage cannot be read.
  public func stock(of fruit: Fruit.ID) throws(FruitStoreError) -> Int {
    guard let index = indices[fruit] else { return 0 }
    return try levels()[index]
  }

  /// Every fruit's stock, taken at one instant.
  ///
  /// - Throws: `FruitStoreError.storage` when the storage cannot be read.
  public func snapshot() throws(FruitStoreError) -> [Fruit.ID: Int] {
    Dictionary(uniqueKeysWithValues: zip(fruits, try levels()))
  }

  /// Every level in the order of `fruits`, taken at one instant.
  ///
  /// - Throws: `FruitStoreError.storage` when the storage cannot be read.
  public func levels() throws(FruitStoreError) -> [Int] {
    do {
      return try storage.levels()
    } catch {
      throw .storage(error)
    }
  }

  // MARK: - Journal

  /// The journal, newest entry first.
  ///
  /// - Parameter query: Which entries; all by default.
  /// - Throws: `FruitStoreError.storage` when the journal cannot be read.
  public func journal(_ query: JournalQuery = JournalQuery()) throws(FruitStoreError)
    -> [JournalEntry]
  {
    do {
      return try storage.journal(query)
    } catch {
      throw .storage(error)
    }
  }

  /// The journal entry of a request id, if it is journaled.
  ///
  /// - Throws: `FruitStoreError.storage` when the journal cannot be read.
  public func entry(for id: RequestID) throws(FruitStoreError) -> JournalEntry? {
    do {
      return try storage.entry(for: id)
    } catch {
      throw .storage(error)
    }
  }

  // MARK: - Editing

  /// Adds fruit to the stock.
  ///
  /// - Parameters:
  ///   - count: How many to add; 0 changes nothing.
  ///   - fruit: The fruit.
  ///   - editor: Who made the edit, for the journal.
  ///   - requestID: The edit's idempotency id; a new one by default. An id already
  ///     journaled returns that edit's result without adding again.
  /// - Returns: The new stock of the fruit.
  /// - Throws: `FruitStoreError` for an unknown fruit, a negative count, a sum that
  ///   would overflow, or a storage failure; nothing changes then.
  @discardableResult
  public func add(
    _ count: Int, of fruit: Fruit.ID, by editor: String = "store", requestID: RequestID? = nil
  ) throws(FruitStoreError) -> Int {
    // A sum that would overflow is the caller's mistake: refused before the storage
    // journals anything. Only a concurrent add in between can still make the sum
    // overflow inside the operation, which then journals a refusal with no shortage.
    if count > 0, let index = indices[fruit] {
      let level = try levels()[index]
      if StockLedger.adding(count, to: level) == nil {
        throw .overflow(fruit: fruit, stock: level, amount: count)
      }
    }
    return try edit(.add(count), count, of: fruit, by: editor, requestID: requestID)
      .after
  }

  /// Removes fruit from the stock; the stock never goes below zero.
  ///
  /// - Parameters:
  ///   - count: How many to remove; 0 changes nothing.
  ///   - fruit: The fruit.
  ///   - editor: Who made the edit, for the journal.
  ///   - requestID: The edit's idempotency id; a new one by default.
  /// - Returns: The new stock of the fruit.
  /// - Throws: `FruitStoreError.insufficientStock` when the store holds fewer than
  ///   `count` (the refusal is journaled), or another `FruitStoreError`; nothing
  ///   changes then.
  @discardableResult
  public func remove(
    _ count: Int, of fruit: Fruit.ID, by editor: String = "store", requestID: RequestID? = nil
  ) throws(FruitStoreError) -> Int {
    try edit(.remove(count), count, of: fruit, by: editor, requestID: requestID)
      .after
  }

  /// Sets a fruit's stock, optionally only if it still is what the caller last saw.
  ///
  /// - Parameters:
  ///   - level: The new stock.
  ///   - fruit: The fruit.
  ///   - editor: Who made the edit, for the journal.
  ///   - expecting: The level the caller expects now; `nil` sets unconditionally.
  ///   - requestID: The edit's idempotency id; a new one by default.
  /// - Returns: The fruit's level before and after.
  /// - Throws: `FruitStoreError.stockChanged` when the level is not `expecting` (the
  ///   conflict is journaled); `.unknownFruit`, `.negativeQuantity` or `.storage`
  ///   otherwise. Nothing changes then.
  @discardableResult
  public func setStock(
    _ level: Int, of fruit: Fruit.ID, by editor: String = "store", expecting: Int? = nil,
    requestID: RequestID? = nil
  ) throws(FruitStoreError) -> StockChange.Level {
    try edit(
      .set(level, expected: expecting), level, of: fruit, by: editor,
      requestID: requestID)
  }

  /// Edits a fruit's stock under a request id, and returns its journal entry whatever
  /// the outcome.
  ///
  /// A reply built from the entry can be given again, the same, when the request is sent
  /// again: the HTTP API answers stock edits this way. `add(_:of:by:requestID:)`,
  /// `remove(_:of:by:requestID:)` and `setStock(_:of:by:expecting:requestID:)` are this
  /// edit with its outcome turned into a level or an error.
  ///
  /// - Parameters:
  ///   - fruit: The fruit.
  ///   - edit: What to do to its level.
  ///   - editor: Who made the edit, for the journal.
  ///   - requestID: The edit's idempotency id.
  /// - Returns: The receipt: a refusal (`.refused`, with no shortage for an add that
  ///   would overflow) or a conflict is an outcome of its entry.
  /// - Throws: `FruitStoreError.unknownFruit`, `.negativeQuantity` or `.storage`; nothing
  ///   changes then.
  public func edit(
    _ fruit: Fruit.ID, _ edit: StockEdit, by editor: String, requestID: RequestID
  ) throws(FruitStoreError) -> StockReceipt {
    let action = edit.action(of: fruit)
    guard action.count >= 0 else { throw .negativeQuantity(action.count, fruit: fruit) }
    if case .set(_, expected: let expected?) = edit, expected < 0 {
      throw .negativeQuantity(expected, fruit: fruit)
    }
    guard let index = indices[fruit] else { throw .unknownFruit(fruit) }
    let operation = StockOperation(id: requestID, editor: editor, action: action)
    do {
      return try perform(operation, touching: [index]) { levels in
        StockLedger.edit(action, at: index, of: &levels)
      }
    } catch {
      throw .storage(error)
    }
  }

  private func edit(
    _ edit: StockEdit, _ count: Int, of fruit: Fruit.ID, by editor: String,
    requestID: RequestID?
  ) throws(FruitStoreError) -> StockChange.Level {
    let receipt = try self.edit(fruit, edit, by: editor, requestID: requestID ?? .random())
    let entry = receipt.entry
    switch (receipt.status, entry.outcome) {
    case (.idReused, _):
      throw .requestIDReused(entry.id, firstUse: entry.operation)
    case (_, .done):
      if let change = entry.changes.first(where: { $0.fruit == fruit }) { return change }
      // Done without a change: the level already was what was asked.
      let level = try stock(of: fruit)
      return StockChange.Level(fruit: fruit, before: level, after: level)
    case (_, .refused(let shortages)):
      // An add refused with no shortage is one that would have overflowed.
      guard let shortage = shortages.first else {
        throw .overflow(fruit: fruit, stock: try stock(of: fruit), amount: count)
      }
      throw .insufficientStock(shortage)
    case (_, .conflict(let fruit, let expected, let actual)):
      throw .stockChanged(fruit: fruit, expected: expected, actual: actual)
    }
  }

  // MARK: - Reports

  /// Counts made and refused, takings and fruit used, grouped as `query` says; the
  /// storage counts them (with `GROUP BY` in SQL).
  ///
  /// - Throws: `FruitStoreError.storage` when the journal cannot be read.
  public func report(_ query: ReportQuery) throws(FruitStoreError) -> [ReportRow] {
    do {
      return try storage.report(query)
    } catch {
      throw .storage(error)
    }
  }

  /// How many journal entries pass `query`'s filters, whatever its limit.
  ///
  /// - Throws: `FruitStoreError.storage` when the journal cannot be read.
  public func journalCount(_ query: JournalQuery) throws(FruitStoreError) -> Int {
    do {
      return try storage.journalCount(query)
    } catch {
      throw .storage(error)
    }
  }

  // MARK: - Limits

  /// Sets a fruit's minimum and par levels for this store, over its pack's; journaled.
  ///
  /// - Parameters:
  ///   - limits: The new minimum and par.
  ///   - fruit: The fruit.
  ///   - editor: Who set them, for the journal.
  ///   - requestID: The edit's idempotency id; a new one by default.
  /// - Throws: `FruitStoreError.unknownFruit`, `.requestIDReused` or `.storage`.
  public func setLimits(
    _ limits: StockLimits, of fruit: Fruit.ID, by editor: String = "store",
    requestID: RequestID? = nil
  ) throws(FruitStoreError) {
    guard let index = indices[fruit] else { throw .unknownFruit(fruit) }
    let operation = StockOperation(
      id: requestID ?? .random(), editor: editor, action: .limits(fruit, limits))
    let receipt: StockReceipt
    do {
      receipt = try perform(operation, touching: [index]) { levels in
        StockLedger.edit(operation.action, at: index, of: &levels)
      }
    } catch {
      throw .storage(error)
    }
    if receipt.status == .idReused {
      throw .requestIDReused(receipt.entry.id, firstUse: receipt.entry.operation)
    }
  }

  /// Each fruit's minimum and par: the store's own (`setLimits(_:of:by:requestID:)`),
  /// else its pack's.
  ///
  /// - Parameter catalog: The packs' fruits, with their limits.
  /// - Returns: One entry per fruit of the store, in level order; `nil` for a fruit with
  ///   no limits, which is never low.
  /// - Throws: `FruitStoreError.storage` when the store cannot be read.
  public func limits(over catalog: Catalog) throws(FruitStoreError) -> [StockLimits?] {
    let own: [Fruit.ID: StockLimits]
    do {
      own = try storage.limits()
    } catch {
      throw .storage(error)
    }
    return fruits.map { own[$0] ?? catalog.fruit($0)?.limits }
  }

  // MARK: - Observing

  /// Registers an observer of every stock change, by this store or any other
  /// sharing its storage (other processes included).
  ///
  /// The observer is called once for each operation that changed at least one
  /// level, after the storage has released its locks: on the thread that performed
  /// it for this store's operations, and on the store's watcher thread for the
  /// others'. While at least one observer is registered, that one thread waits for
  /// the storage's changes (`StockStorage.waitForChanges(timeout:)`) and reads the
  /// journal entries it has not seen.
  ///
  /// - Parameter handler: Called with each change.
  /// - Returns: The observation; the observer stays registered until it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @Sendable (StockChange) -> Void) -> StockObservation {
    let observation = StockObservation(registry: observers, id: observers.add(handler))
    startWatching()
    return observation
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

  /// What the watcher thread knows.
  struct Watch {
    /// Whether the watcher thread runs.
    var running = false
    /// The newest journal entry the watcher has read.
    var seen: Int64 = 0
    /// The newest entry journaled before the watcher started: never news.
    var floor: Int64 = 0
    /// Entries already delivered to observers, by this store or the watcher, not yet
    /// below the window the watcher reads again.
    var delivered: Set<Int64> = []

    /// The sequence after which the watcher reads: a window below `seen`, because a
    /// storage may number an entry before it commits, so an entry can appear after a
    /// newer one was read.
    var readAfter: Int64 { max(floor, seen - FruitStore.watchWindow) }
  }

  /// How many sequence numbers below the newest one seen the watcher reads again.
  static let watchWindow: Int64 = 64

  /// Starts the watcher thread unless it runs.
  private func startWatching() {
    let start = watch.withLock { watch in
      guard !watch.running else { return false }
      watch.running = true
      return true
    }
    guard start else { return }
    sharedLevels?.takeUnretainedValue().watch(true)
    // Changes from now on: entries journaled before the first observer are not news.
    let newest = (try? storage.journal(JournalQuery(limit: 1)))?.first?.sequence
    watch.withLock { watch in
      watch.seen = max(watch.seen, newest ?? 0)
      watch.floor = max(watch.floor, newest ?? 0)
    }
    Threads.detach { [self] in watchChanges() }
  }

  /// The watcher thread: waits for changes and delivers the entries it has not seen.
  private func watchChanges() {
    while true {
      let stop = watch.withLock { watch in
        guard observers.isActive else {
          watch.running = false
          sharedLevels?.takeUnretainedValue().watch(false)
          return true
        }
        return false
      }
      if stop { return }
      do {
        try storage.waitForChanges(timeout: Self.watchInterval)
        let after = watch.withLock { $0.readAfter }
        let entries = try storage.journal(JournalQuery(after: after))
        for entry in entries.reversed() {
          let news = watch.withLock { watch in
            watch.seen = max(watch.seen, entry.sequence)
            return entry.sequence > watch.floor && watch.delivered.insert(entry.sequence).inserted
          }
          if news, entry.outcome == .done, !entry.changes.isEmpty {
            observers.notify(StockChange(operation: entry.operation, levels: entry.changes))
          }
        }
        watch.withLock { watch in
          let after = watch.readAfter
          watch.delivered = watch.delivered.filter { $0 > after }
        }
      } catch {
        // A storage that cannot be read now is tried again after the interval.
        Threads.sleep(seconds: Self.watchIntervalSeconds)
      }
    }
  }

  /// How long the watcher waits for a change before looking again.
  static let watchInterval = Duration.milliseconds(100)
  private static let watchIntervalSeconds = 0.1

  // MARK: - Operations

  /// Adds fruit for a shop: over shared levels nobody watches, under the order path's
  /// lock alone and not journaled, as the shop's orders are; else as `add(_:of:by:)`.
  ///
  /// - Throws: As `add(_:of:by:requestID:)`.
  package func restock(_ count: Int, of fruit: Fruit.ID, by editor: String)
    throws(FruitStoreError)
  {
    if count >= 0, let index = indices[fruit], let levels = sharedLevels?.takeUnretainedValue(),
      !levels.isWatched
    {
      let (before, after) = levels.add(count, at: index)
      guard after != nil else { throw .overflow(fruit: fruit, stock: before, amount: count) }
      return
    }
    try add(count, of: fruit, by: editor)
  }

  /// Withdraws over shared levels, and on a refusal copies each ingredient's level
  /// into `available`: the order fast path, inlined into the caller.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's level index and amount per juice.
  ///   - count: How many juices; `amount × count` must not overflow.
  ///   - available: Room for one level per ingredient, or `nil`.
  /// - Returns: Whether the fruit was withdrawn; `nil` when the store has no shared
  ///   levels or is watched, and the caller takes the storage's path.
  @inlinable @inline(__always)
  package func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, available: UnsafeMutablePointer<Int>?
  ) -> Bool? {
    guard let sharedLevels else { return nil }
    return sharedLevels._withUnsafeGuaranteedRef { levels in
      levels.isWatched ? nil : levels.withdraw(recipe, count: count, available: available)
    }
  }

  /// Withdraws one juice's worth of a recipe's fruit over shared levels with no
  /// branch on the outcome, copying each ingredient's level before the order into
  /// `available`: the rush's order path.
  ///
  /// - Returns: 1 when made, 0 when refused; `nil` when the store has no shared levels
  ///   or is watched, and the caller takes the shop's path.
  @inline(__always)
  package func withdrawOne(
    _ recipe: UnsafeBufferPointer<StockNeed>, available: UnsafeMutablePointer<Int>
  ) -> Int? {
    guard let sharedLevels else { return nil }
    return sharedLevels._withUnsafeGuaranteedRef { levels in
      levels.isWatched ? nil : levels.withdrawOne(recipe, available: available)
    }
  }

  /// Adds fruit for a shop by level index, as `restock(_:of:by:)`: the rush's restocks,
  /// with no fruit id hashed, inlined into the caller over shared levels.
  ///
  /// - Throws: As `add(_:of:by:requestID:)`.
  @inline(__always)
  package func restock(_ count: Int, at index: Int, by editor: String)
    throws(FruitStoreError)
  {
    if count >= 0, let sharedLevels {
      let added = sharedLevels._withUnsafeGuaranteedRef { levels in
        levels.isWatched ? nil : levels.add(count, at: index)
      }
      if let (before, after) = added {
        guard after != nil else { throw overflow(at: index, stock: before, amount: count) }
        return
      }
    }
    try add(count, of: fruits[index], by: editor)
  }

  @inline(never)
  private func overflow(at index: Int, stock: Int, amount: Int) -> FruitStoreError {
    .overflow(fruit: fruits[index], stock: stock, amount: amount)
  }

  /// Runs one atomic operation on the storage and tells observers what changed.
  ///
  /// - Throws: `StockStorageError` when the storage failed.
  package func perform(
    _ operation: StockOperation, touching: [Int], _ body: (inout StockLevels) -> StockOutcome
  ) throws(StockStorageError) -> StockReceipt {
    let receipt = try storage.perform(operation, touching: touching, body)
    let entry = receipt.entry
    if receipt.status == .performed, !entry.changes.isEmpty, observers.isActive {
      // Delivered here unless the watcher has read it from the journal already.
      let news = watch.withLock { watch in
        entry.sequence > watch.readAfter && watch.delivered.insert(entry.sequence).inserted
      }
      if news {
        observers.notify(StockChange(operation: operation, levels: entry.changes))
      }
    }
    return receipt
  }
}
