import CSQLite
import JuiceMakerKit

/// What turns a failed SQLite call into a `StockStorageError` that names the store.
struct FailureContext {
  /// The store file.
  let path: String
  /// The busy timeout, named when another process holds the lock too long.
  let busyTimeout: Duration

  /// The storage error for a failed SQLite call, with SQLite's own message.
  ///
  /// Damage and foreign data are `.invalid`; locks, permissions, I/O and a full
  /// disk are `.unavailable`.
  func failure(_ code: Int32, connection: OpaquePointer?) -> StockStorageError {
    let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(code)"
    switch code & 0xFF {
    case SQLITE_BUSY, SQLITE_LOCKED:
      return .unavailable(
        path: path,
        detail: "another process holds the store locked for longer than the busy timeout "
          + "(\(timeoutDescription))")
    case SQLITE_NOTADB:
      return .invalid(path: path, detail: "the file is not an SQLite database")
    case SQLITE_CORRUPT, SQLITE_FORMAT:
      return .invalid(path: path, detail: "the database is damaged (\(message))")
    case SQLITE_ERROR, SQLITE_SCHEMA, SQLITE_CONSTRAINT, SQLITE_MISMATCH, SQLITE_RANGE:
      return .invalid(path: path, detail: message)
    case SQLITE_READONLY:
      return .unavailable(path: path, detail: "the store is read-only (\(message))")
    case SQLITE_FULL:
      return .unavailable(path: path, detail: "the disk is full")
    default:
      return .unavailable(path: path, detail: "\(message) (SQLite error \(code))")
    }
  }

  private var timeoutDescription: String {
    let (seconds, attoseconds) = busyTimeout.components
    let milliseconds = attoseconds / 1_000_000_000_000_000
    return milliseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + milliseconds) ms"
  }
}
