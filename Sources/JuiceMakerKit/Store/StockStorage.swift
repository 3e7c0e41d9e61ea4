/// Where a `FruitStore` keeps its stock levels and its journal: in memory, in an
/// SQLite file, or in a database server.
///
/// A storage holds one level per fruit, in the order of `fruits`, and a journal of
/// every operation with its outcome. Each call to
/// `perform(_:touching:_:)` is one atomic operation: no other operation, in this
/// process or another sharing the storage, interleaves with it. `FruitStore` builds
/// every public operation on this protocol alone, so the same `JuiceMaker` code and
/// the same guarantees hold over any storage.
///
/// `withdraw(_:count:available:operation:)` is the order fast path. Its default
/// implementation is built on `perform`; a storage that can do better (the
/// in-memory storage, under its lock alone) overrides it.
public protocol StockStorage: Sendable {
  /// The fruits the storage holds levels for, in level order.
  var fruits: [Fruit.ID] { get }

  /// The store's name for messages: a file path, or a server address with any
  /// password left out.
  var location: String { get }

  /// Reads every level.
  ///
  /// - Returns: One level per fruit, in the order of `fruits`.
  /// - Throws: `StockStorageError` when the storage cannot be read.
  func levels() throws(StockStorageError) -> [Int]

  /// Runs one operation atomically and journals it.
  ///
  /// If an entry with `operation.id` is journaled already, `body` does not run and
  /// that entry is returned with `replayed == true`. Otherwise the storage reads the
  /// levels at `touching`, lets `body` change them, and keeps the changed levels
  /// together with one journal entry (the operation, its outcome, and each changed
  /// level before and after), all or nothing. A `.refused` or `.conflict` outcome
  /// changes no level, whatever `body` left, but is journaled too.
  ///
  /// - Parameters:
  ///   - operation: The operation, journaled with its id.
  ///   - touching: The level indices `body` may read or change, ascending; a storage
  ///     may lock only those rows, in that order.
  ///   - body: Changes the levels and returns the outcome; it runs at most once, and
  ///     must not block or call back into the storage.
  /// - Returns: The journal entry, and whether it is a replay of an earlier one.
  /// - Throws: `StockStorageError` when the operation could not be kept; then no level
  ///   changed and nothing was journaled (`.outcomeUnknown` when the storage cannot
  ///   tell: look the id up with `entry(for:)`).
  func perform(
    _ operation: StockOperation, touching: [Int], _ body: (inout StockLevels) -> StockOutcome
  ) throws(StockStorageError) -> StockReceipt

  /// Withdraws `count` times a recipe's fruit at once, or nothing when any is short:
  /// the order fast path.
  ///
  /// The default implementation runs `perform(_:touching:_:)` with `operation()`.
  /// A storage overriding it keeps the same guarantees (atomic, journaled) but may
  /// skip building the operation and the entry on the way.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's level index and its amount per juice; every
  ///     index is one of the storage's levels, each at most once.
  ///   - count: How many juices; `amount × count` must not overflow.
  ///   - operation: Makes the operation to journal, when the storage needs one.
  /// - Returns: Whether the fruit was withdrawn, or the refusal.
  /// - Throws: `StockStorageError` when the storage failed; nothing was withdrawn.
  func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, operation: () -> StockOperation
  ) throws(StockStorageError) -> StockWithdrawal

  /// The levels, when the storage keeps them in this process's memory under
  /// `SharedStockLevels`' lock; `nil` (the default) otherwise.
  ///
  /// A store with shared levels makes orders under that lock alone, without
  /// journaling them, unless it has observers or the order has a request id.
  var sharedLevels: SharedStockLevels? { get }

  /// The journal, newest entry first, filtered by `query`.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read or an entry is
  ///   damaged.
  func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry]

  /// The journal entry of a request id, if it is journaled: the exactly-once look-up
  /// after a lost reply.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read.
  func entry(for id: RequestID) throws(StockStorageError) -> JournalEntry?

  /// Waits at most `timeout` until the store may have changed, returning early on a
  /// change by any process; it may also return early without one.
  ///
  /// - Throws: `StockStorageError` when the storage cannot be watched.
  func waitForChanges(timeout: Duration) throws(StockStorageError)
}

/// How an order on the fast path ended.
public enum StockWithdrawal: Hashable, Sendable {
  /// The fruit was withdrawn.
  case made
  /// Some fruit was short, and the storage journaled the refusal with every
  /// shortage.
  case refused([Shortage])
  /// Some fruit was short; nothing was journaled. The caller runs the order through
  /// `perform(_:touching:_:)` for the shortages, which checks the stock afresh.
  case short
}

/// One ingredient of the order fast path: which level, and how much of it one juice
/// takes.
public struct StockNeed: Hashable, Sendable, BitwiseCopyable {
  /// The level index in the storage's `fruits`.
  public var index: Int
  /// How many of the fruit one juice takes; positive.
  public var amount: Int

  /// Creates a need.
  public init(index: Int, amount: Int) {
    self.index = index
    self.amount = amount
  }
}

// MARK: - Default implementations

extension StockStorage {
  /// No shared levels: orders go through `withdraw(_:count:operation:)`.
  public var sharedLevels: SharedStockLevels? { nil }

  /// Withdraws through `perform(_:touching:_:)`, journaling `operation()`.
  public func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, operation: () -> StockOperation
  ) throws(StockStorageError) -> StockWithdrawal {
    try journaledWithdraw(recipe, count: count, operation: operation)
  }

  /// Withdraws through `perform(_:touching:_:)`, journaling `operation()`: the default
  /// `withdraw(_:count:operation:)`, for a storage that overrides it to call.
  ///
  /// - Returns: `.made`, or `.refused` with every shortage in recipe order.
  /// - Throws: `StockStorageError` when the storage failed; nothing was withdrawn.
  public func journaledWithdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, operation: () -> StockOperation
  ) throws(StockStorageError) -> StockWithdrawal {
    let fruits = self.fruits
    let touching = recipe.map(\.index).sorted()
    let receipt = try perform(operation(), touching: touching) { levels in
      let shortages = recipe.compactMap { need in
        let needed = need.amount &* count
        return levels[need.index] < needed
          ? Shortage(fruit: fruits[need.index], needed: needed, available: levels[need.index])
          : nil
      }
      guard shortages.isEmpty else { return .refused(shortages) }
      for need in recipe {
        levels[need.index] -= need.amount &* count
      }
      return .done
    }
    if case .refused(let shortages) = receipt.entry.outcome { return .refused(shortages) }
    return .made
  }
}
