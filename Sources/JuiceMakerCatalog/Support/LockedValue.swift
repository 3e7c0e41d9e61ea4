import Foundation

/// A value guarded by a lock: the package's one box for ordinary shared state.
///
/// It holds the state of observers, journals and database connections, where a
/// critical section is short and rarely contended, or long enough (a database
/// transaction) that a waiter should sleep in the kernel, as `NSLock` waiters do.
/// The order path uses `SpinLock` instead; see there why.
///
/// It is `@unchecked Sendable` for the same reason as `NIOLockedValueBox`: the value
/// is reached only inside `withLock`, while the lock is held. A box holding a value
/// that is not `Sendable` (a database connection) must not let references to it
/// escape `withLock`.
package final class LockedValue<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Creates a box holding `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
