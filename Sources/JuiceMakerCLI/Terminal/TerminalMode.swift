import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal in raw mode on the alternate screen, and the way back.
///
/// `enter()` saves the terminal's settings, turns off line editing, echo and the
/// signal keys, and switches to the alternate screen with the cursor hidden;
/// `restore()` undoes all of it. `restore()` may be called any number of times, from
/// any thread (a signal's handler as well as the loop's `defer`): only the first call
/// acts.
final class TerminalMode: Sendable {
  /// The descriptor read for keys.
  let input: Int32
  /// The descriptor drawn on.
  let output: Int32
  private let saved: Mutex<termios?>

  private init(input: Int32, output: Int32, saved: termios) {
    self.input = input
    self.output = output
    self.saved = Mutex(saved)
  }

  /// Switches the terminal to raw mode and the alternate screen.
  ///
  /// - Parameters:
  ///   - input: The terminal's input descriptor.
  ///   - output: The terminal's output descriptor.
  /// - Returns: The mode to restore, or `nil` when the terminal's settings cannot be
  ///   read or changed (nothing is changed then).
  static func enter(input: Int32 = 0, output: Int32 = 1) -> TerminalMode? {
    var original = termios()
    guard tcgetattr(input, &original) == 0 else { return nil }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      characters[Int(VMIN)] = 0
      characters[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { return nil }
    let mode = TerminalMode(input: input, output: output, saved: original)
    // Alternate screen, cursor hidden, no automatic wrap at the right edge.
    mode.send("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J")
    return mode
  }

  /// Leaves the alternate screen, shows the cursor and puts back the terminal's settings.
  func restore() {
    guard
      var original = saved.withLock({ saved in
        defer { saved = nil }; return saved
      })
    else {
      return
    }
    send("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
    _ = tcsetattr(input, TCSAFLUSH, &original)
  }

  /// Writes to the terminal, retrying short writes; a terminal that is gone is ignored.
  func send(_ text: String) {
    FileDescriptorOutput(descriptor: output).write(text)
  }

  deinit {
    restore()
  }
}
