import JuiceMakerKit
import JuiceMakerSQLite

/// The full-screen shop's view of a store that other processes change: the levels, and
/// what other shops did since the last look.
///
/// The feed reads the store when asked (the loop asks a few times a second), and reads
/// the journal only when the levels moved.
final class ShopFeed {
  /// What changed since the last poll.
  struct Update {
    /// Every level, in the store's order.
    var levels: [Int]
    /// Journal entries written by others since the last look, oldest first.
    var entries: [JournalEntry]
  }

  private let storage: SQLiteStockStorage
  private var levels: [Int]
  private var lastSeen: Int64

  /// Starts a feed at the store's current state.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  init(storage: SQLiteStockStorage) throws(CLIError) {
    self.storage = storage
    levels = []
    lastSeen = 0
    levels = try read()
    lastSeen = try newest()
  }

  /// The levels and others' entries when the levels moved since the last poll; `nil` when
  /// they did not.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  func poll() throws(CLIError) -> Update? {
    let current = try read()
    guard current != levels else { return nil }
    levels = current
    let entries: [JournalEntry]
    do throws(StockStorageError) {
      entries = try storage.journal(limit: 50).filter { $0.id > lastSeen }
    } catch {
      throw CLIError(error)
    }
    lastSeen = max(lastSeen, entries.map(\.id).max() ?? lastSeen)
    return Update(levels: current, entries: entries.reversed())
  }

  /// Marks everything journaled so far as seen, after this shop's own operation, so
  /// that the status line shows only what others do.
  ///
  /// - Returns: The levels now.
  /// - Throws: `CLIError` when the store cannot be read.
  func skipOwn() throws(CLIError) -> [Int] {
    levels = try read()
    lastSeen = try newest()
    return levels
  }

  private func newest() throws(CLIError) -> Int64 {
    do throws(StockStorageError) {
      return try storage.journal(limit: 1).first?.id ?? 0
    } catch {
      throw CLIError(error)
    }
  }

  private func read() throws(CLIError) -> [Int] {
    do throws(StockStorageError) {
      return try storage.levels()
    } catch {
      throw CLIError(error)
    }
  }
}
