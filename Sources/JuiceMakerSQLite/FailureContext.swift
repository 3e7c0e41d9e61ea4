import CSQLite
import JuiceMakerKit

/// What turns a failed SQLite call into a `StockStorageError` that names the store
/// and keeps SQLite's result code, its message, and what the storage was doing.
struct FailureContext {
  /// The store file.
  let path: String
  /// The busy timeout, named when another process holds the lock too long.
  let busyTimeout: Duration

  /// The storage error for a failed SQLite call.
  ///
  /// Damage and foreign data are `.invalid`; locks, permissions, I/O and a full
  /// disk are `.unavailable`.
  ///
  /// - Parameters:
  ///   - code: SQLite's (extended) result code.
  ///   - connection: The connection, for SQLite's message; `nil` when there is none.
  ///   - purpose: What the storage was doing.
  func failure(_ code: Int32, connection: OpaquePointer?, purpose: String) -> StockStorageError {
    var message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? ""
    if message.isEmpty { message = String(cString: sqlite3_errstr(code)) }
    let primary = code & 0xFF
    if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
      message =
        "another process holds the store locked for longer than the busy timeout "
        + "(\(timeoutDescription)): \(message)"
    }
    let cause = StorageFailure(
      code: "\(Self.name(of: primary)) (\(code))", message: message, purpose: purpose)
    switch primary {
    case SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FORMAT, SQLITE_ERROR, SQLITE_SCHEMA,
      SQLITE_CONSTRAINT, SQLITE_MISMATCH, SQLITE_RANGE:
      return .invalid(store: path, cause: cause)
    default:
      return .unavailable(store: path, cause: cause)
    }
  }

  /// A failure SQLite did not report: the storage found the data wrong.
  func invalid(_ message: String, purpose: String) -> StockStorageError {
    .invalid(store: path, cause: StorageFailure(code: "", message: message, purpose: purpose))
  }

  private var timeoutDescription: String {
    let (seconds, attoseconds) = busyTimeout.components
    let milliseconds = attoseconds / 1_000_000_000_000_000
    return milliseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + milliseconds) ms"
  }

  /// The name of a primary result code, such as `SQLITE_BUSY`.
  static func name(of primary: Int32) -> String {
    let names: [Int32: String] = [
      SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL",
      SQLITE_PERM: "SQLITE_PERM", SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY",
      SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM",
      SQLITE_READONLY: "SQLITE_READONLY", SQLITE_INTERRUPT: "SQLITE_INTERRUPT",
      SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT",
      SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL",
      SQLITE_CANTOPEN: "SQLITE_CANTOPEN", SQLITE_PROTOCOL: "SQLITE_PROTOCOL",
      SQLITE_SCHEMA: "SQLITE_SCHEMA", SQLITE_TOOBIG: "SQLITE_TOOBIG",
      SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
      SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
      SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
    ]
    return names[primary] ?? "SQLITE_\(primary)"
  }
}
