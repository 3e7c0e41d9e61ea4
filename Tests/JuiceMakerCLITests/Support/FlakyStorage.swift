import Foundation
import JuiceMakerKit
import Synchronization

/// A storage in memory that fails on demand, as a busy SQLite file, a PostgreSQL server
/// that is down, or a damaged store does, and that can lose the outcome of a committed
/// operation, as a connection lost after `COMMIT` does.
final class FlakyStorage: StockStorage {
  /// How the storage fails now.
  enum Failure: Sendable {
    /// Another process holds the lock.
    case busy
    /// The server does not answer.
    case down
    /// The data cannot be trusted.
    case invalid
  }

  /// How every operation fails now; `nil` when they work.
  let failure = Mutex<Failure?>(nil)
  /// Whether the next operation is kept but reported lost.
  let loseNextOutcome = Mutex(false)
  private let storage: InMemoryStockStorage

  init(catalog: Catalog) {
    storage = InMemoryStockStorage(
      fruits: catalog.fruits.map(\.id), levels: catalog.fruits.map(\.initialStock),
      journalsOrders: true)
  }

  var fruits: [Fruit.ID] { storage.fruits }
  var location: String { "flaky" }

  func levels() throws(StockStorageError) -> [Int] {
    try check()
    return storage.levels()
  }

  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry? {
    try check()
    let entry = storage.transact(id, touching: touching, decide)
    let lose = loseNextOutcome.withLock { lose in
      defer { lose = false }
      return lose
    }
    if lose {
      throw .outcomeUnknown(store: location, id: id, cause: Self.cause("lost"))
    }
    return entry
  }

  func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry] {
    try check()
    return storage.journal(query)
  }

  func waitForChanges(timeout: Duration) throws(StockStorageError) {
    try check()
    storage.waitForChanges(timeout: timeout)
  }

  private func check() throws(StockStorageError) {
    switch failure.withLock({ $0 }) {
    case nil: return
    case .busy:
      throw .unavailable(
        store: location,
        cause: StorageFailure(code: "SQLITE_BUSY (5)", message: "locked", purpose: "testing"))
    case .down:
      throw .unavailable(store: location, cause: Self.cause("connection refused"))
    case .invalid:
      throw .invalid(store: location, cause: Self.cause("damaged"))
    }
  }

  private static func cause(_ message: String) -> StorageFailure {
    StorageFailure(code: "08006", message: message, purpose: "testing")
  }
}
