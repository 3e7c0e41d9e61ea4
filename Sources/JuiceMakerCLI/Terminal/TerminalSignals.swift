import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals a full-screen program must answer, turned into bytes on a pipe that the
/// program's loop polls beside the keyboard (the self-pipe pattern, fed by Dispatch
/// signal sources instead of a C signal handler).
///
/// `SIGWINCH` asks for a redraw; `SIGINT`, `SIGTERM` and `SIGHUP` end the program. When
/// the loop does not answer an ending signal within `graceTime` (it may be stuck in the
/// store), the watcher itself restores the terminal and lets the signal end the process.
final class TerminalSignals {
  /// The signals that end the program.
  static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  /// How long the loop has to end cleanly after an ending signal.
  static let graceTime: DispatchTimeInterval = .seconds(2)

  /// The descriptor to poll; each byte read is a signal number.
  let descriptor: Int32
  private let writeEnd: Int32
  private let sources: [any DispatchSourceSignal]

  /// Starts watching.
  ///
  /// - Parameter terminal: Restored before the process ends when the loop does not
  ///   answer an ending signal in time.
  /// - Returns: The watcher, or `nil` when no pipe can be made.
  static func watch(restoring terminal: TerminalMode) -> TerminalSignals? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    return TerminalSignals(read: ends[0], write: ends[1], terminal: terminal)
  }

  private init(read: Int32, write writeEnd: Int32, terminal: TerminalMode) {
    descriptor = read
    self.writeEnd = writeEnd
    let queue = DispatchQueue(label: "juice-maker.signals")
    var sources: [any DispatchSourceSignal] = []
    for number in Self.ending + [SIGWINCH] {
      // The default action would end the process before the terminal is restored.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd, &byte, 1)
        guard Self.ending.contains(number) else { return }
        queue.asyncAfter(deadline: .now() + Self.graceTime) {
          terminal.restore()
          Self.end(by: number)
        }
      }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
  }

  /// Reads the signals that arrived since the last call.
  func received() -> [Int32] {
    var buffer = [UInt8](repeating: 0, count: 64)
    var numbers: [Int32] = []
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      numbers += buffer[..<count].map { Int32($0) }
    }
    return numbers
  }

  /// Stops watching and gives the signals back their default actions.
  func stop() {
    for source in sources { source.cancel() }
    for number in Self.ending + [SIGWINCH] { signal(number, SIG_DFL) }
  }

  /// Ends the process by a signal, with its default action, so that the parent sees
  /// the usual status (130 after `SIGINT` in a shell).
  static func end(by number: Int32) -> Never {
    signal(number, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, number)
    sigprocmask(SIG_UNBLOCK, &set, nil)
    raise(number)
    _exit(128 + number)
  }

  deinit {
    stop()
    close(descriptor)
    close(writeEnd)
  }
}
