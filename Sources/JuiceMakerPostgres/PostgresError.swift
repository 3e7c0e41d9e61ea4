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
  /// SQLSTATE `55P03`: a lock was not granted within `lock_timeout`.
  static let lockNotAvailable = "55P03"
  /// SQLSTATE `57014`: a statement was cancelled, by `statement_timeout` or on request.
  static let queryCanceled = "57014"

  /// Whether running the whole transaction again may succeed: a serialization
  /// failure or a deadlock.
  ///
  /// A lock or statement timeout is not transient: its wait has used the time the
  /// operation had, and running it again would wait as long once more.
  var isTransient: Bool {
    code == Self.serializationFailure || code == Self.deadlockDetected
  }

  /// Whether the statement gave up waiting: `lock_timeout` or `statement_timeout` ran
  /// out (or the statement was cancelled on request).
  var isTimeout: Bool {
    code == Self.lockNotAvailable || code == Self.queryCanceled
  }

  /// Whether the server ended the connection or the session for good: class `08`
  /// (connection exception) and `57P01`–`57P03` (shut down, crashed, cannot connect
  /// now).
  static func endsSession(_ code: String) -> Bool {
    code.hasPrefix("08") || code == "57P01" || code == "57P02" || code == "57P03"
  }
}
