import Foundation
import Synchronization

/// Stock levels and a bounded journal held in memory; what `FruitStore(catalog:)`
/// uses.
///
/// Levels live in `sharedLevels`, under the order path's lock, so an order on the
/// fast path is a few array reads and writes under that lock and nothing else. Operations through `perform(_:touching:_:)`
/// (stock edits, orders with a request id or watched by observers) are journaled;
/// the journal keeps the newest `journalCapacity` entries. Fast-path orders and shops'
/// restocks change the levels without a journal entry: while any store over the
/// levels has observers, or when a caller gives a request id, they take the journaled
/// path instead.
public final class InMemoryStockStorage: StockStorage {
  public let fruits: [Fruit.ID]
  public let location: String
  /// How many journal entries the storage keeps, the newest.
  public let journalCapacity: Int
  /// The levels, guarded by the order path's lock.
  public let sharedLevels: SharedStockLevels?
  private let shared: SharedStockLevels
  private let journalState: LockedValue<Journal>
  /// The sequence number of the newest entry, read without a lock by waiters.
  private let newest = Atomic<Int64>(0)

  /// The newest entries in a ring, with an index by request id.
  private struct Journal {
    /// The entries; once full, `start` is the oldest.
    var ring: [JournalEntry] = []
    var start = 0
    var byID: [RequestID: Int64] = [:]
    var nextSequence: Int64 = 1

    /// The entries, newest first.
    var newestFirst: [JournalEntry] {
      ring.indices.reversed().map { ring[($0 + start) % ring.count] }
    }

    func entry(sequence: Int64) -> JournalEntry? {
      let offset = Int(sequence - (nextSequence - Int64(ring.count)))
      guard offset >= 0, offset < ring.count else { return nil }
      return ring[(start + offset) % ring.count]
    }

    mutating func append(_ entry: JournalEntry, capacity: Int) {
      guard capacity > 0 else { return }
      if ring.count < capacity {
        ring.append(entry)
      } else {
        byID[ring[start].id] = nil
        ring[start] = entry
        start = (start + 1) % capacity
      }
      byID[entry.id] = entry.sequence
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
    self.shared = SharedStockLevels(levels)
    self.sharedLevels = shared
    self.journalState = LockedValue(Journal())
  }

  public func levels() -> [Int] {
    shared.read()
  }

  /// Runs one operation under the levels' lock and journals it.
  ///
  /// - Throws: `StockStorageError.invalid` when `body` leaves a level below zero;
  ///   nothing changes then.
  public func perform(
    _ operation: StockOperation, touching: [Int], _ body: (inout StockLevels) -> StockOutcome
  ) throws(StockStorageError) -> StockReceipt {
    if let replayed = entry(for: operation.id) {
      return StockReceipt(entry: replayed, replayed: true)
    }
    // The journal's lock is taken inside the levels' lock, so entries are numbered
    // in the order the operations ran.
    let receipt = try shared.withLock { levels throws(StockStorageError) -> StockReceipt in
      let before = StockLevels(levels, touching: touching)
      var after = before
      let outcome = body(&after)
      var changes: [StockChange.Level] = []
      if outcome == .done {
        changes = after.changes(from: before, fruits: fruits)
        if let negative = changes.first(where: { $0.after < 0 }) {
          throw .invalid(
            store: location,
            cause: StorageFailure(
              code: "",
              message: "an operation would leave \(negative.fruit) at \(negative.after); "
                + "stock never goes below zero", purpose: "performing an operation"))
        }
      }
      return journalState.withLock { journal in
        // An id journaled by a concurrent call since the first look wins.
        if let first = journal.byID[operation.id].flatMap({ journal.entry(sequence: $0) }) {
          return StockReceipt(entry: first, replayed: true)
        }
        if outcome == .done {
          for index in touching { levels[index] = after.values[index] }
        }
        let entry = JournalEntry(
          sequence: journal.nextSequence, date: Date(), operation: operation, outcome: outcome,
          changes: changes)
        journal.nextSequence += 1
        journal.append(entry, capacity: journalCapacity)
        return StockReceipt(entry: entry, replayed: false)
      }
    }
    if !receipt.replayed { newest.store(receipt.entry.sequence, ordering: .releasing) }
    return receipt
  }

  /// Withdraws under the levels' lock alone, with no journal entry; a refusal is
  /// `.short`, so nothing is allocated under the lock.
  public func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, operation: () -> StockOperation
  ) -> StockWithdrawal {
    shared.withdraw(recipe, count: count, available: nil) ? .made : .short
  }

  public func journal(_ query: JournalQuery) -> [JournalEntry] {
    journalState.withLock { journal in
      var result: [JournalEntry] = []
      for entry in journal.newestFirst where query.matches(entry) {
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
