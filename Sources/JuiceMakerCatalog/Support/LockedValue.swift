#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock: the package's one box for ordinary shared state.
///
/// It holds the state of observers, journals and database connections, where a
/// critical section is short and rarely contended, or long enough (a database
/// transaction) that a waiter should sleep in the kernel, as a POSIX mutex's waiters do.
/// The order path uses `SpinLock` instead; see there why.
///
/// It is `@unchecked Sendable` for the same reason as `NIOLockedValueBox`: the value
/// is reached only inside `withLock`, while the lock is held. A box holding a value
/// that is not `Sendable` (a database connection) must not let references to it
/// escape `withLock`.
package final class LockedValue<Value>: @unchecked Sendable {
  /// A POSIX mutex, at a fixed address, as one must be.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// Creates a box holding `value`.
  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
