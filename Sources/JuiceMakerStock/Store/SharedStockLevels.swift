public import Synchronization

/// The levels `InMemoryStockStorage` keeps in this process's memory, under the order
/// path's lock.
///
/// A `FruitStore` over an in-memory storage that does not journal every order makes
/// orders under this lock alone, inlined into the caller; what an order does to the
/// levels is `StockLedger`'s rule, run over this buffer.
///
/// The lock word and the levels share one allocation, aligned to a cache line, so an
/// order touches one line of shared memory for as many fruits as fit beside the word.
///
/// While any store over the levels has observers, every store journals its orders,
/// so the observers see them: `isWatched` tells the order path.
@usableFromInline
final class SharedStockLevels: Sendable {
  /// The lock word, at the start of the allocation.
  @usableFromInline let lock: SpinLock
  /// The levels, one per fruit of the storage, right after the lock word.
  @usableFromInline nonisolated(unsafe) let values: UnsafeMutablePointer<Int>
  /// How many levels.
  @usableFromInline let count: Int
  /// How many stores over these levels are watching for changes.
  @usableFromInline let watchers = Atomic<Int>(0)

  /// The size of a cache line, the allocation's alignment.
  private static let lineSize = 64

  /// Creates shared levels.
  ///
  /// - Parameter levels: One level per fruit, in the storage's order.
  init(_ levels: [Int]) {
    let wordSize = MemoryLayout<Atomic<Int>>.stride
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: wordSize + MemoryLayout<Int>.stride * max(1, levels.count),
      alignment: Self.lineSize)
    let word = raw.bindMemory(to: Atomic<Int>.self, capacity: 1)
    SpinLock.initialize(word)
    lock = SpinLock(word: word)
    values = (raw + wordSize).bindMemory(to: Int.self, capacity: max(1, levels.count))
    values.initialize(repeating: 0, count: max(1, levels.count))
    for (index, level) in levels.enumerated() {
      values[index] = level
    }
    count = levels.count
  }

  deinit {
    lock.word.deinitialize(count: 1)
    UnsafeMutableRawPointer(lock.word).deallocate()
  }

  /// Whether any store over the levels is watching for changes.
  @inlinable var isWatched: Bool {
    watchers.load(ordering: .relaxed) > 0
  }

  /// Counts a store that starts (`true`) or stops (`false`) watching for changes.
  func watch(_ starting: Bool) {
    watchers.add(starting ? 1 : -1, ordering: .relaxed)
  }

  /// Every level, read under the lock.
  func read() -> [Int] {
    lock.lock()
    defer { lock.unlock() }
    return Array(UnsafeBufferPointer(start: values, count: count))
  }

  /// Withdraws `count` times a recipe's fruit, or nothing when any is short.
  ///
  /// On a refusal, when `available` is given, each ingredient's level is copied into
  /// it under the lock, so the caller lists the shortages after the lock is
  /// released, with nothing allocated under it.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's level index and amount per juice.
  ///   - count: How many juices; `amount × count` must not overflow.
  ///   - available: Room for one level per ingredient, or `nil`.
  /// - Returns: Whether the fruit was withdrawn; `false` with nothing changed.
  @inlinable @inline(__always)
  func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, available: UnsafeMutablePointer<Int>?
  ) -> Bool {
    let values = self.values
    lock.lock()
    let made = StockLedger.withdraw(recipe, count: count, from: values)
    if !made, let available {
      for position in 0..<recipe.count {
        available[position] = values[recipe[position].index]
      }
    }
    lock.unlock()
    return made
  }

  /// Withdraws one juice's worth of a recipe's fruit, or nothing when any is short,
  /// copying each ingredient's level before the order into `available`, with no
  /// branch on the outcome: for a loop that orders juices picked at random, where
  /// whether an order is made cannot be predicted.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's level index and amount per juice.
  ///   - available: Room for one level per ingredient.
  /// - Returns: 1 when the fruit was withdrawn; 0 with nothing changed.
  @inline(__always)
  func withdrawOne(
    _ recipe: UnsafeBufferPointer<StockNeed>, available: UnsafeMutablePointer<Int>
  ) -> Int {
    lock.lock()
    let made = StockLedger.withdrawOne(recipe, from: values, available: available)
    lock.unlock()
    return made
  }

  /// Adds to one level under the lock, unless the sum would overflow.
  ///
  /// - Returns: The level before and the new level, or `nil` with nothing changed
  ///   when the sum would overflow (then `before` is the level found).
  @inlinable
  func add(_ amount: Int, at index: Int) -> (before: Int, after: Int?) {
    lock.lock()
    let before = values[index]
    let sum = StockLedger.adding(amount, to: before)
    if let sum { values[index] = sum }
    lock.unlock()
    return (before, sum)
  }

  /// Runs `body` with exclusive access to the levels: a copy of them, written back
  /// when `body` returns or throws.
  func withLock<Result, Failure: Error>(
    _ body: (inout [Int]) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    var levels = Array(UnsafeBufferPointer(start: values, count: count))
    defer {
      for index in 0..<min(count, levels.count) { values[index] = levels[index] }
    }
    return try body(&levels)
  }
}
