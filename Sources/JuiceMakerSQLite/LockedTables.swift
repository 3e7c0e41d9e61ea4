import Foundation
import JuiceMakerKit

/// The stock tables of one connection behind a lock: the module's only
/// `@unchecked Sendable` type.
///
/// The tables are reached only inside `withLock`, so one thread at a time uses the
/// connection (opened with `SQLITE_OPEN_NOMUTEX`). The lock is an `NSLock`: on
/// Linux, `Synchronization.Mutex` collapses when more threads than cores contend,
/// and the critical section here is a whole SQLite transaction, so a waiter should
/// sleep rather than spin.
final class LockedTables: @unchecked Sendable {
  private let lock = NSLock()
  private let tables: StockTables

  init(_ tables: StockTables) {
    self.tables = tables
  }

  /// Runs `body` with exclusive use of the tables.
  func withLock<Result>(
    _ body: (StockTables) throws(StockStorageError) -> Result
  ) throws(StockStorageError) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(tables)
  }
}
