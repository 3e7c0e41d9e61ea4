import Dispatch
import JuiceMakerKit

/// The connections of one `PostgresStockStorage`: one per operation running at once, up
/// to a maximum, each with its prepared statements.
///
/// Concurrent shops over one storage each run on a connection of their own, so their
/// transactions overlap on the server where their rows allow; a caller beyond the
/// maximum waits for a connection to come back. Connections are made on first need and
/// kept, the most recently used first, so a single caller keeps one connection.
final class SessionPool: Sendable {
  private struct State {
    /// Connections not in use, the most recently returned last.
    var idle: [Session]
    /// Called after each `COMMIT` is sent, on every connection; for tests.
    var afterCommitSent: (@Sendable () -> Void)?
  }

  private let state: LockedValue<State>
  /// Counts the connections that may still be taken.
  private let available: DispatchSemaphore
  private let connect: @Sendable () throws(StockStorageError) -> Session

  /// The most connections the pool opens.
  let maximum: Int

  /// Creates a pool holding its first connection.
  ///
  /// - Parameters:
  ///   - first: A connection already made.
  ///   - maximum: The most connections to open, at least 1.
  ///   - connect: Makes another connection.
  init(
    first: Session, maximum: Int,
    connect: @escaping @Sendable () throws(StockStorageError) -> Session
  ) {
    self.maximum = max(1, maximum)
    state = LockedValue(State(idle: [first]))
    available = DispatchSemaphore(value: self.maximum)
    self.connect = connect
  }

  /// Runs `body` on a connection of its own, made when none is idle.
  ///
  /// - Throws: What `body` throws; `StockStorageError.unavailable` when a new
  ///   connection cannot be made.
  func withSession<Result>(
    _ body: (Session) throws(StockStorageError) -> Result
  ) throws(StockStorageError) -> Result {
    available.wait()
    defer { available.signal() }
    let taken = state.withLock { state in
      (session: state.idle.popLast(), hook: state.afterCommitSent)
    }
    let session: Session
    if let idle = taken.session {
      session = idle
    } else {
      session = try connect()
      session.afterCommitSent = taken.hook
    }
    defer { state.withLock { $0.idle.append(session) } }
    return try body(session)
  }

  /// Sets the hook called after each `COMMIT` is sent, on every connection.
  func afterCommitSent(_ hook: (@Sendable () -> Void)?) {
    state.withLock { state in
      state.afterCommitSent = hook
      for session in state.idle { session.afterCommitSent = hook }
    }
  }
}
