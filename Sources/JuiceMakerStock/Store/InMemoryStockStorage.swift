import FoundationEssentials
public import JuiceMakerCatalog
import Synchronization

/// Stock levels and a bounded journal held in memory; what `FruitStore(catalog:)`
/// uses.
///
/// The journal keeps the newest `journalCapacity` entries. Operations through
/// `perform(_:touching:_:)` (stock edits, orders with a request id or watched by
/// observers) are always journaled. What happens to a shop's plain orders and
/// restocks depends on `journalsOrders`:
///
/// - `false` (the default): they take the order fast path, a few reads and writes
///   under the levels' lock and nothing else, with no journal entry and no clock
///   read. While any store over the levels has observers, they are journaled so the
///   observers see them.
/// - `true`: every order and restock is journaled like any other operation, as the
///   SQLite and PostgreSQL storages do, so `journal(_:)` (and `history`) lists every
///   order.
public final class InMemoryStockStorage: StockStorage {
  public let fruits: [Fruit.ID]
  public let location: String
  /// How many journal entries the storage keeps, the newest.
  public let journalCapacity: Int
  /// Whether every order and restock is journaled, rather than taking the order fast
  /// path unjournaled.
  public let journalsOrders: Bool
  /// The levels, under the order path's lock.
  let shared: SharedStockLevels
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
  ///   - journalsOrders: Whether every order and restock is journaled; by default
  ///     they take the order fast path, unjournaled unless observed.
  /// - Precondition: `fruits` and `levels` have the same length; `FruitStore`'s
  ///   initializers check the stock rules before creating the storage.
  public init(
    fruits: [Fruit.ID], levels: [Int], journalCapacity: Int = 1024, location: String = "memory",
    journalsOrders: Bool = false
  ) {
    precondition(fruits.count == levels.count, "one level per fruit")
    self.fruits = fruits
    self.location = location
    self.journalCapacity = max(0, journalCapacity)
    self.journalsOrders = journalsOrders
    self.shared = SharedStockLevels(levels)
    self.journalState = LockedValue(Journal())
  }

  public func levels() -> [Int] {
    shared.read()
  }

  /// Runs one transaction under the levels' lock.
  ///
  /// The journal's lock is taken inside the levels' lock, so entries are numbered in
  /// the order the operations ran.
  public func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) -> JournalEntry? {
    let entry = shared.withLock { levels in
      journalState.withLock { journal -> JournalEntry? in
        let journaled = journal.byID[id].flatMap { journal.entry(sequence: $0) }
        guard
          let commit = decide(
            StockTransaction(levels: StockLevels(levels, touching: touching), journaled: journaled))
        else { return nil }
        for change in commit.changes { levels[change.index] = change.level.after }
        let entry = commit.entry(sequence: journal.nextSequence, date: Date())
        journal.nextSequence += 1
        journal.append(entry, capacity: journalCapacity)
        return entry
      }
    }
    if let entry { newest.store(entry.sequence, ordering: .releasing) }
    return entry
  }

  public func journal(_ query: JournalQuery) -> [JournalEntry] {
    journalState.withLock { journal in
      if let request = query.request {
        let entry = journal.byID[request].flatMap { journal.entry(sequence: $0) }
        return entry.map { query.matches($0) && query.limit != 0 ? [$0] : [] } ?? []
      }
      var result: [JournalEntry] = []
      for entry in journal.newestFirst where query.matches(entry) {
        if let limit = query.limit, result.count >= limit { break }
        result.append(entry)
      }
      return result
    }
  }

  /// Polls the newest sequence number until it moves or `timeout` passes.
  public func waitForChanges(timeout: Duration) {
    let start = newest.load(ordering: .acquiring)
    let deadline = ContinuousClock.now + timeout
    while newest.load(ordering: .acquiring) == start, ContinuousClock.now < deadline {
      Threads.sleep(seconds: 0.005)
    }
  }
}
