import CThreadPlacement

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
  /// On Linux the thread starts on another core than the caller's: placed on the caller's
  /// busy core, a new thread can wait a whole scheduler slice, milliseconds, before it
  /// runs, while another core sits idle. Once running it may move to any core.
  ///
  /// - Returns: Whether the thread started; when it did not, `body` was not run.
  @discardableResult
  package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return false }
    defer { pthread_attr_destroy(&attributes) }
    let work = Work(body)
    work.restoresCores = juice_start_elsewhere(&attributes, &work.cores) == 1
    let argument = Unmanaged.passRetained(work).toOpaque()
    let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
      argument in
      guard let argument else { return nil }
      let work = Unmanaged<Work>.fromOpaque(argument).takeRetainedValue()
      if work.restoresCores { juice_allow_cores(&work.cores) }
      work.body()
      return nil
    }
    var thread = pthread_t()
    var started = pthread_create(&thread, &attributes, run, argument)
    // A system that refuses the placement still gets its thread, wherever it starts.
    if started != 0, work.restoresCores {
      work.restoresCores = false
      started = pthread_create(&thread, nil, run, argument)
    }
    guard started == 0 else {
      Unmanaged<Work>.fromOpaque(argument).release()
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

  /// The work a new thread runs, and the cores it may run on once started.
  ///
  /// It is `Sendable` as the thread that makes it sets its cores before the new thread
  /// starts, and only the new thread reads them after.
  private final class Work: @unchecked Sendable {
    let body: @Sendable () -> Void
    var cores = juice_cores()
    var restoresCores = false
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}
