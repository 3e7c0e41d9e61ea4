import Foundation
import Synchronization

/// Stock levels and a bounded journal held in memory; what `FruitStore(catalog:)`
/// uses.
///
/// Levels live under a `SpinLocked` lock, so an order on the fast path
/// (`withdraw(_:count:available:operation:)`) is a few array reads and writes
/// under that lock and nothing else. Operations through `perform(_:touching:_:)`
/// (stock edits, orders with a request id or watched by observers) are journaled;
/// the journal keeps the newest `journalCapacity` entries. Fast-path orders change
/// the levels without a journal entry: a store with observers, or a caller that
/// gives a request id, takes the journaled path instead.
public final class InMemoryStockStorage: StockStorage {
  public let fruits: [Fruit.ID]
  public let location: String
  /// How many journal entries the storage keeps, the newest.
  public let journalCapacity: Int
  /// The levels, guarded by the order path's lock.
  @usableFromInline let state: SpinLocked<[Int]>
  private let journalState: LockedValue<Journal>
  /// The sequence number of the newest entry, read without a lock by waiters.
  private let newest = Atomic<Int64>(0)

  /// The newest entries, oldest first, with an index by request id.
  private struct Journal {
    var entries: [JournalEntry] = []
    var first = 0
    var byID: [RequestID: Int64] = [:]
    var nextSequence: Int64 = 1

    func entry(sequence: Int64) -> JournalEntry? {
      guard let oldest = entries.first?.sequence else { return nil }
      let offset = Int(sequence - oldest)
      guard offset >= 0, offset < entries.count else { return nil }
      return entries[offset]
    }
  }

  /// Creates storage with the given levels.
  ///
  /// - Parameters:
  ///   - fruits: The fruits, in level order, each once.
  ///   - levels: One level per fruit, none negative.
  ///   - journalCapacity: How many journal entries to keep, the newest.
  ///   - location: The name messages give the store.
  /// - Precondition: `fruits` and `levels` have the same length; `FruitStore`'s
  ///   initializers check the stock rules before creating the storage.
  public init(
    fruits: [Fruit.ID], levels: [Int], journalCapacity: Int = 1024, location: String = "memory"
  ) {
    precondition(fruits.count == levels.count, "one level per fruit")
    self.fruits = fruits
    self.location = location
    self.journalCapacity = max(0, journalCapacity)
    self.state = SpinLocked(levels)
    self.journalState = LockedValue(Journal())
  }

  public func levels() -> [Int] {
    state.withLock { $0 }
  }

  public func perform(
    _ operation: StockOperation, touching: [Int], _ body: (inout StockLevels) -> StockOutcome
  ) -> StockReceipt {
    if let replayed = journalState.withLock({ journal in
      journal.byID[operation.id].flatMap { journal.entry(sequence: $0) }
    }) {
      return StockReceipt(entry: replayed, replayed: true)
    }
    // The journal's lock is taken inside the levels' lock, so entries are numbered
    // in the order the operations ran.
    let entry = state.withLock { levels in
      let before = StockLevels(levels, touching: touching)
      var after = before
      let outcome = body(&after)
      var changes: [StockChange.Level] = []
      if outcome == .done {
        changes = after.changes(from: before, fruits: fruits)
        for index in touching { levels[index] = after.values[index] }
      }
      return journalState.withLock { journal in
        // An id journaled by a concurrent call since the first look wins.
        if let sequence = journal.byID[operation.id], let first = journal.entry(sequence: sequence)
        {
          return (first, true)
        }
        let entry = JournalEntry(
          sequence: journal.nextSequence, date: Date(), operation: operation, outcome: outcome,
          changes: changes)
        journal.nextSequence += 1
        append(entry, to: &journal)
        return (entry, false)
      }
    }
    if !entry.1 { newest.store(entry.0.sequence, ordering: .releasing) }
    return StockReceipt(entry: entry.0, replayed: entry.1)
  }

  private func append(_ entry: JournalEntry, to journal: inout Journal) {
    guard journalCapacity > 0 else { return }
    if journal.entries.count == journalCapacity {
      let dropped = journal.entries.removeFirst()
      journal.byID[dropped.id] = nil
    }
    journal.entries.append(entry)
    journal.byID[entry.id] = entry.sequence
  }

  /// Withdraws under the levels' lock alone, with no journal entry.
  @inlinable
  public func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int,
    available: UnsafeMutableBufferPointer<Int>, operation: () -> StockOperation
  ) -> Bool {
    state.withLock { levels in
      for need in recipe where levels[need.index] < need.amount &* count {
        for (position, need) in recipe.enumerated() {
          available[position] = levels[need.index]
        }
        return false
      }
      for need in recipe {
        levels[need.index] &-= need.amount &* count
      }
      return true
    }
  }

  public func journal(_ query: JournalQuery) -> [JournalEntry] {
    journalState.withLock { journal in
      var result: [JournalEntry] = []
      for entry in journal.entries.reversed() where query.matches(entry) {
        if let limit = query.limit, result.count >= limit { break }
        result.append(entry)
      }
      return result
    }
  }

  public func entry(for id: RequestID) -> JournalEntry? {
    journalState.withLock { journal in
      journal.byID[id].flatMap { journal.entry(sequence: $0) }
    }
  }

  /// Polls the newest sequence number until it moves or `timeout` passes.
  public func waitForChanges(timeout: Duration) {
    let start = newest.load(ordering: .acquiring)
    let deadline = ContinuousClock.now + timeout
    while newest.load(ordering: .acquiring) == start, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.005)
    }
  }
}
