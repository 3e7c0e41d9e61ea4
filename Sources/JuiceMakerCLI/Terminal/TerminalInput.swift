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
  /// The other descriptor watched became readable (the store changed).
  case woken
}

/// Waits for keys, signals and one more descriptor together, with `poll(2)` on the
/// terminal, the signals' pipe and that descriptor (the store's change feed).
struct TerminalInput {
  let descriptor: Int32
  let signals: TerminalSignals
  /// A descriptor whose readiness is reported as `.woken`; the caller drains it.
  let wake: Int32
  private var decoder = KeyDecoder()

  init(descriptor: Int32, signals: TerminalSignals, wake: Int32 = -1) {
    self.descriptor = descriptor
    self.signals = signals
    self.wake = wake
  }

  /// The events that arrive within `timeout`; empty when nothing came.
  mutating func next(timeout: Duration) -> [TerminalEvent] {
    let wait = decoder.isWaiting ? min(timeout, KeyDecoder.escapeTimeout) : timeout
    var descriptors = [
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    let milliseconds = Int32(
      clamping: wait.components.seconds * 1000
        + wait.components.attoseconds / 1_000_000_000_000_000)
    let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    if ready < 0 { return [] }
    var events: [TerminalEvent] = []
    if descriptors[2].revents != 0 { events.append(.woken) }
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
