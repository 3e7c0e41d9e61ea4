import JuiceMakerCLI
import Synchronization

/// A `TextOutput` that keeps everything written to it, for running the command in-process.
final class CapturedOutput: TextOutput {
  private let buffer = Mutex("")

  /// Everything written so far.
  var text: String { buffer.withLock { $0 } }

  func write(_ text: String) {
    buffer.withLock { $0 += text }
  }
}

/// A `LineInput` that reads the lines of a string, like standard input from a pipe.
struct ScriptedInput: LineInput {
  private var lines: [Substring]

  /// Creates an input; an empty string has no lines, and a last line without a line
  /// break is still read.
  init(_ text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    self.lines = lines
  }

  mutating func readLine() -> String? {
    lines.isEmpty ? nil : String(lines.removeFirst())
  }
}
