/// How long the statements of a store's connections may wait, set on the server for
/// each connection as it starts.
///
/// Sent in libpq's `options` startup parameter, before the connection URI's own
/// `options` (or `PGOPTIONS`), so that a `-c lock_timeout=…` the user gives wins:
///
/// ```swift
/// SessionTimeouts(lock: .seconds(15), statement: .seconds(30)).options
/// // -c lock_timeout=15000 -c statement_timeout=30000 -c idle_in_transaction_session_timeout=30000
/// ```
struct SessionTimeouts: Hashable, Sendable {
  /// `lock_timeout`: how long a statement waits for a row lock, a table lock or the
  /// schema lock that another session holds.
  var lock: Duration
  /// `statement_timeout`: how long one statement may run; also
  /// `idle_in_transaction_session_timeout`, so that the server ends a session of this
  /// program that stops mid-transaction (a machine that dropped off the network) and
  /// frees its rows.
  var statement: Duration

  /// The `-c name=value` switches, in whole milliseconds of at least 1 (0 would turn
  /// the timeout off).
  var options: String {
    [
      ("lock_timeout", lock), ("statement_timeout", statement),
      ("idle_in_transaction_session_timeout", statement),
    ].map { "-c \($0.0)=\(Self.milliseconds($0.1))" }.joined(separator: " ")
  }

  private static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow else { return seconds > 0 ? Int64(Int32.max) : 1 }
    // The server takes at most INT_MAX milliseconds.
    return min(Int64(Int32.max), max(1, product + attoseconds / 1_000_000_000_000_000))
  }
}
