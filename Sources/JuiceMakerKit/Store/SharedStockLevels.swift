public import Synchronization

/// Levels a storage keeps in this process's memory, under the order path's lock.
///
/// A storage whose levels live in memory hands its `SharedStockLevels` to
/// `FruitStore` through `StockStorage.sharedLevels`; the store then makes orders under
/// this lock alone, inlined into the caller, with no call through the protocol. A
/// storage that keeps its levels elsewhere returns `nil` (the default), and orders go
/// through `StockStorage.withdraw(_:count:operation:)`.
///
/// While any store over the levels has observers, every store journals its orders,
/// so the observers see them: `isWatched` tells the order path.
public final class SharedStockLevels: Sendable {
  /// The levels, one per fruit of the storage.
  @usableFromInline let state: SpinLocked<[Int]>
  /// How many stores over these levels are watching for changes.
  @usableFromInline let watchers = Atomic<Int>(0)

  /// Creates shared levels.
  ///
  /// - Parameter levels: One level per fruit, in the storage's order.
  public init(_ levels: [Int]) {
    state = SpinLocked(levels)
  }

  /// Whether any store over the levels is watching for changes.
  @inlinable public var isWatched: Bool {
    watchers.load(ordering: .relaxed) > 0
  }

  /// Counts a store that starts (`true`) or stops (`false`) watching for changes.
  public func watch(_ starting: Bool) {
    watchers.add(starting ? 1 : -1, ordering: .relaxed)
  }

  /// Every level, read under the lock.
  public func read() -> [Int] {
    state.withLock { $0 }
  }

  /// Withdraws `count` times a recipe's fruit, or nothing when any is short.
  ///
  /// - Returns: `.made`, or `.short` with nothing changed.
  @inlinable
  public func withdraw(_ recipe: UnsafeBufferPointer<StockNeed>, count: Int) -> StockWithdrawal {
    state.withLock { levels in
      for need in recipe where levels[need.index] < need.amount &* count {
        return .short
      }
      for need in recipe {
        levels[need.index] &-= need.amount &* count
      }
      return .made
    }
  }

  /// Withdraws like `withdraw(_:count:)`, and on a refusal copies each ingredient's
  /// level into `available`, so the caller lists the shortages after the lock is
  /// released, with nothing allocated under it.
  ///
  /// - Parameter available: As long as `recipe`.
  /// - Returns: `.made`, or `.short` with `available` filled and nothing changed.
  public func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int,
    available: UnsafeMutableBufferPointer<Int>
  ) -> StockWithdrawal {
    state.withLock { levels in
      for need in recipe where levels[need.index] < need.amount &* count {
        for (position, need) in recipe.enumerated() {
          available[position] = levels[need.index]
        }
        return .short
      }
      for need in recipe {
        levels[need.index] &-= need.amount &* count
      }
      return .made
    }
  }

  /// Adds to one level under the lock, unless the sum would overflow.
  ///
  /// - Returns: The level before and the new level, or `nil` with nothing changed
  ///   when the sum would overflow (then `before` is the level found).
  public func add(_ amount: Int, at index: Int) -> (before: Int, after: Int?) {
    state.withLock { levels in
      let before = levels[index]
      let (sum, overflow) = before.addingReportingOverflow(amount)
      guard !overflow else { return (before, nil) }
      levels[index] = sum
      return (before, sum)
    }
  }

  /// Runs `body` with exclusive access to the levels.
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout [Int]) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try state.withLock(body)
  }
}
