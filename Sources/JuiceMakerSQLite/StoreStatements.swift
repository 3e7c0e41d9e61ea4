import CSQLite
import JuiceMakerKit

/// The SQL of the transaction every operation runs, and the settings of the connection
/// that runs it.
///
/// `StockTables` prepares these statements once per connection. They are visible to the
/// package so that a comparison running the same work elsewhere (the benchmark's Python
/// `sqlite3` baseline) runs the very same statements, not a copy that can drift.
///
/// One operation is:
///
/// ```sql
/// BEGIN IMMEDIATE;
/// SELECT … FROM journal WHERE request_id = ?1;        -- a replay returns the first entry
/// SELECT id, level FROM stock;                        -- the levels the operation sees
/// UPDATE stock SET level = ?2 WHERE id = ?1;          -- once per changed level
/// INSERT INTO journal (…) VALUES (?1, …, ?15);        -- one entry, whatever the outcome
/// COMMIT;
/// ```
package enum StoreStatements {
  /// Takes the write lock at once, so two writers never both read the same levels.
  package static let begin = "BEGIN IMMEDIATE"
  /// Commits the operation: one flush of the log at `.full` durability.
  package static let commit = "COMMIT"
  /// Undoes a failed operation.
  package static let rollback = "ROLLBACK"

  /// The columns of a journal entry, those of `JournalRow`, in its order.
  package static let entryColumns = JournalRow.columns.joined(separator: ", ")

  /// The journal entry of a request id (`?1`), if any.
  package static let selectRequest =
    "SELECT \(entryColumns) FROM journal WHERE request_id = ?1"

  /// Every stock row's id and level.
  package static let selectLevels = "SELECT id, level FROM stock"

  /// Sets the level (`?2`) of the stock row `?1`.
  package static let updateLevel = "UPDATE stock SET level = ?2 WHERE id = ?1"

  /// Journals one operation: the columns of `JournalRow` after `sequence`, request id
  /// to par (`?1` to `?15`); SQLite numbers the entry.
  package static let insertEntry = """
    INSERT INTO journal (\(JournalRow.columns.dropFirst().joined(separator: ", ")))
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
    """

  /// The version of the SQLite library the storage runs on, such as `3.40.1`.
  package static var libraryVersion: String {
    String(cString: sqlite3_libversion())
  }

  /// The settings every connection applies when it opens, for a durability.
  ///
  /// The file itself keeps write-ahead logging and its page size; the busy timeout is
  /// set through SQLite's C API.
  package static func connectionPragmas(_ durability: SQLiteStockStorage.Durability) -> String {
    """
    PRAGMA synchronous = \(durability.rawValue.uppercased());
    PRAGMA wal_autocheckpoint = \(StoreSchema.checkpointPages);
    PRAGMA journal_size_limit = \(StoreSchema.checkpointPages * StoreSchema.pageSize);
    PRAGMA trusted_schema = OFF;
    """
  }
}
