#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe that wakes the full-screen loop: `wake()`, from any thread, makes
/// `descriptor` readable, so the loop's `poll(2)` returns beside the keyboard (the
/// self-pipe pattern).
final class WakePipe: Sendable {
  /// The descriptor that becomes readable after `wake()`.
  let descriptor: Int32
  private let writeEnd: Int32

  /// Makes the pipe; with no pipe, `descriptor` is -1 and the loop only times out.
  init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    }
    descriptor = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    for end in [descriptor, writeEnd] where end >= 0 { close(end) }
  }

  /// Makes `descriptor` readable; a full pipe is readable already.
  func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Reads what the wake-ups left, so that `descriptor` waits again.
  func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while descriptor >= 0, read(descriptor, &buffer, buffer.count) > 0 {}
  }
}
