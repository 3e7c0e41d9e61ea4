public import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock that spins briefly, then yields the processor: the
/// lock of the order path, and the one exception to `LockedValue`.
///
/// The critical sections it guards are a few array reads and writes, so a waiter
/// almost always finds the lock free within a few spins. On Linux,
/// `Synchronization.Mutex` is a priority-inheritance futex whose throughput
/// collapses when more OS threads than cores contend for such short sections, and
/// `NSLock` parks waiters in the kernel; a waiter here yields its time slice
/// instead of sleeping. The benchmark measures all three side by side
/// (`juice-maker-benchmark --only orders`; figures in the README's Performance
/// table).
///
/// It is `@unchecked Sendable` because the value is reached only inside `withLock`,
/// between acquire and release of the atomic flag.
@usableFromInline
final class SpinLocked<Value> {
  @usableFromInline let flag = Atomic<Bool>(false)
  /// The value lives outside the object so that access needs no dynamic
  /// exclusivity check: the lock already guarantees exclusive access.
  @usableFromInline let value: UnsafeMutablePointer<Value>

  init(_ value: Value) {
    self.value = UnsafeMutablePointer.allocate(capacity: 1)
    self.value.initialize(to: value)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body(&value.pointee)
  }

  @inlinable
  func lock() {
    if flag.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
      return
    }
    lockSlowly()
  }

  @usableFromInline @inline(never)
  func lockSlowly() {
    while true {
      var spins = 0
      while flag.load(ordering: .relaxed) {
        spins += 1
        if spins >= 64 {
          sched_yield()
          spins = 0
        }
      }
      if flag.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
        return
      }
    }
  }

  @inlinable
  func unlock() {
    flag.store(false, ordering: .releasing)
  }
}

extension SpinLocked: @unchecked Sendable where Value: Sendable {}
