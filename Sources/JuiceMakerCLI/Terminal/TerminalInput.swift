#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What woke the full-screen loop.
enum TerminalEvent: Hashable, Sendable {
  /// A key was pressed.
  case key(Key)
  /// The terminal changed size.
  case resized
  /// A signal asks the program to end.
  case ending(signal: Int32)
  /// The terminal is gone: the end of input, or a read error such as a hang-up.
  case closed
}

/// Waits for keys and signals together, with `poll(2)` on the terminal and the signals'
/// pipe.
struct TerminalInput {
  let descriptor: Int32
  let signals: TerminalSignals
  private var decoder = KeyDecoder()

  init(descriptor: Int32, signals: TerminalSignals) {
    self.descriptor = descriptor
    self.signals = signals
  }

  /// The events that arrive within `timeout`; empty when nothing came.
  mutating func next(timeout: Duration) -> [TerminalEvent] {
    let wait = decoder.isWaiting ? min(timeout, KeyDecoder.escapeTimeout) : timeout
    var descriptors = [
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
    ]
    let milliseconds = Int32(
      clamping: wait.components.seconds * 1000
        + wait.components.attoseconds / 1_000_000_000_000_000)
    let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    if ready < 0 { return [] }
    var events: [TerminalEvent] = []
    if descriptors[1].revents != 0 {
      for number in signals.received() {
        events.append(number == SIGWINCH ? .resized : .ending(signal: number))
      }
    }
    if descriptors[0].revents & Int16(POLLIN) != 0 {
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = read(descriptor, &buffer, buffer.count)
      if count > 0 {
        events += decoder.feed(buffer[..<count]).map { .key($0) }
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        events.append(.closed)
      }
    } else if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
      events.append(.closed)
    } else if ready == 0, decoder.isWaiting {
      events += decoder.flush().map { .key($0) }
    }
    return events
  }
}
