/// Why persistent storage failed.
public enum StockStorageError: Error, Hashable, Sendable {
  /// The storage could not be opened, read or written (missing directory, permissions,
  /// a full disk, or another process holding the lock past the busy timeout).
  case unavailable(path: String, detail: String)
  /// The storage holds data this version cannot trust: not a store, a damaged file, or
  /// an unknown schema version.
  case invalid(path: String, detail: String)
}

// MARK: - CustomStringConvertible

extension StockStorageError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unavailable(let path, let detail):
      "store \(path) is unavailable: \(detail)"
    case .invalid(let path, let detail):
      "store \(path) is not a valid juice-maker store: \(detail)"
    }
  }
}
