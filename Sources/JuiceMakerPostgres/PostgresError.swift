/// A failure reported by libpq or by the server, with the server's SQLSTATE.
struct PostgresError: Error, Hashable, Sendable {
  /// The SQLSTATE, such as `40P01`; empty for a failure of the client library itself
  /// (no connection, out of memory).
  var code: String
  /// The message, with every password of the connection URI replaced by `***`.
  var message: String
  /// Whether the connection is gone, so nothing more can be sent on it.
  var connectionLost: Bool

  /// SQLSTATE `40001`: the transaction could not be serialized; running it again may
  /// succeed.
  static let serializationFailure = "40001"
  /// SQLSTATE `40P01`: the transaction was chosen to break a deadlock.
  static let deadlockDetected = "40P01"
  /// SQLSTATE `23505`: a unique constraint refused a row.
  static let uniqueViolation = "23505"

  /// Whether running the whole transaction again may succeed: a serialization
  /// failure or a deadlock.
  var isTransient: Bool {
    code == Self.serializationFailure || code == Self.deadlockDetected
  }

  /// Whether the server ended the connection or the session for good: class `08`
  /// (connection exception) and `57P01`–`57P03` (shut down, crashed, cannot connect
  /// now).
  static func endsSession(_ code: String) -> Bool {
    code.hasPrefix("08") || code == "57P01" || code == "57P02" || code == "57P03"
  }
}
