#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Threads of the package's own: a thread started for one piece of work, and a pause of
/// the calling thread.
///
/// POSIX threads directly, so that the package needs no more of Foundation than
/// `FoundationEssentials`: a program that links Foundation whole loads its
/// internationalization libraries at every start.
package enum Threads {
  /// Runs `body` on a new thread of its own, which ends when `body` returns.
  ///
  /// - Returns: Whether the thread started; when it did not, `body` was not run.
  @discardableResult
  package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
        return nil
      }, work)
    guard started == 0 else {
      Unmanaged<Work>.fromOpaque(work).release()
      return false
    }
    pthread_detach(thread)
    return true
  }

  /// Pauses the calling thread for `seconds`, resuming after a signal until the time is up.
  package static func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    let whole = seconds.rounded(.down)
    var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR {
      request = remaining
    }
  }

  /// The work a new thread runs.
  private final class Work: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}
