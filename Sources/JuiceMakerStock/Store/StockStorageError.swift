/// Why a storage failed. Each case names the store and keeps the engine's cause.
public enum StockStorageError: Error, Hashable, Sendable {
  /// The store cannot be reached now: it cannot be opened, read or written (missing
  /// directory, permissions, a full disk, a lock held past the busy timeout, a
  /// server that does not answer).
  case unavailable(store: String, cause: StorageFailure)
  /// The store holds data this version cannot trust: not a store, a damaged file,
  /// another application's database, a newer schema.
  case invalid(store: String, cause: StorageFailure)
  /// The operation with request id `id` was sent for commit but its result was lost;
  /// it may or may not be kept. `StockStorage.entry(for:)` tells which.
  case outcomeUnknown(store: String, id: RequestID, cause: StorageFailure)
  /// There is no store at `store` (no file, an empty file, a database without the
  /// store's tables) and opening it with `StoreCreation.never` created none.
  case missing(store: String, cause: StorageFailure)
  /// A store exists at `store` already; opening it with `StoreCreation.always`
  /// left it unchanged.
  case alreadyExists(store: String, cause: StorageFailure)
  /// The store's path no longer names the file (or the `-wal` or `-shm` beside it) that
  /// the storage has open: it was removed, renamed or replaced while open. The storage
  /// writes nothing more, since what it wrote would land in a file no other process
  /// opens; opening the store again uses what the path names now.
  case replaced(store: String, cause: StorageFailure)
}

/// What the storage engine said when it failed, and what the storage was doing.
public struct StorageFailure: Error, Hashable, Sendable {
  /// The engine's code, such as `SQLITE_BUSY (5)` or the PostgreSQL SQLSTATE
  /// `40P01`; empty when the engine gave none.
  public var code: String
  /// The engine's own message, with any password left out.
  public var message: String
  /// What the storage was doing, such as `reading levels`.
  public var purpose: String

  /// Creates a failure.
  public init(code: String, message: String, purpose: String) {
    self.code = code
    self.message = message
    self.purpose = purpose
  }
}

// MARK: - Parts

extension StockStorageError {
  /// The store the error names.
  public var store: String {
    switch self {
    case .unavailable(let store, _), .invalid(let store, _), .outcomeUnknown(let store, _, _),
      .missing(let store, _), .alreadyExists(let store, _), .replaced(let store, _):
      store
    }
  }

  /// The engine's failure.
  public var cause: StorageFailure {
    switch self {
    case .unavailable(_, let cause), .invalid(_, let cause), .outcomeUnknown(_, _, let cause),
      .missing(_, let cause), .alreadyExists(_, let cause), .replaced(_, let cause):
      cause
    }
  }
}

// MARK: - CustomStringConvertible

extension StockStorageError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unavailable(let store, let cause):
      "store \(store) is unavailable: \(cause)"
    case .invalid(let store, let cause):
      "store \(store) is not a valid juice-maker store: \(cause)"
    case .outcomeUnknown(let store, let id, let cause):
      "store \(store) lost the outcome of request \(id): \(cause)"
    case .missing(let store, let cause):
      "there is no store at \(store): \(cause)"
    case .alreadyExists(let store, let cause):
      "there is a store at \(store) already: \(cause)"
    case .replaced(let store, let cause):
      "store \(store) was replaced under this process: \(cause)"
    }
  }
}

extension StorageFailure: CustomStringConvertible {
  /// `message (code) while purpose`, leaving out what is empty.
  public var description: String {
    var text = message
    if !code.isEmpty { text += " (\(code))" }
    if !purpose.isEmpty { text += " while \(purpose)" }
    return text
  }
}
