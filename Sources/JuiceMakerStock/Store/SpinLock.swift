public import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock word that spins briefly, then yields the processor: the lock of the order
/// path, and the one exception to `LockedValue`.
///
/// The critical sections it guards are a few reads and writes of levels, so a waiter
/// almost always finds the lock free within a few spins. On Linux,
/// `Synchronization.Mutex` is a priority-inheritance futex whose throughput
/// collapses when more OS threads than cores contend for such short sections, and
/// `NSLock` parks waiters in the kernel; a waiter here yields its time slice
/// instead of sleeping. The benchmark measures all three side by side
/// (`juice-maker-benchmark --only orders`; figures in the Performance article of
/// this module's documentation).
///
/// The word lives in memory its owner allocates, next to the values it guards, so
/// that taking the lock and changing the values touch one cache line. `SpinLock`
/// itself is only the address: the owner initializes the word with
/// `initialize(_:)` and deinitializes it when the memory goes.
@usableFromInline
struct SpinLock: @unchecked Sendable {
  @usableFromInline let word: UnsafeMutablePointer<Atomic<Int>>

  /// A lock whose word is at `word`; the owner has initialized it.
  @usableFromInline
  init(word: UnsafeMutablePointer<Atomic<Int>>) {
    self.word = word
  }

  /// Initializes an unlocked word at `word`.
  static func initialize(_ word: UnsafeMutablePointer<Atomic<Int>>) {
    word.initialize(to: Atomic(0))
  }

  @inlinable
  func lock() {
    if word.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      return
    }
    lockSlowly()
  }

  @usableFromInline @inline(never)
  func lockSlowly() {
    while true {
      var spins = 0
      while word.pointee.load(ordering: .relaxed) != 0 {
        spins += 1
        if spins >= 8 {
          sched_yield()
          spins = 0
        }
      }
      if word.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
        return
      }
    }
  }

  @inlinable
  func unlock() {
    word.pointee.store(0, ordering: .releasing)
  }
}
