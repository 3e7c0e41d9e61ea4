extension String {
  /// This text with control characters replaced by visible escapes, safe to print on a terminal.
  ///
  /// C0 controls (U+0000–U+001F, including ESC, tab, and newline), DEL (U+007F), and C1 controls
  /// (U+0080–U+009F) become `\u{1B}`-style escapes, so a name from a pack cannot move the cursor,
  /// change colours, or clear the screen. Everything else, Hangul included, is kept.
  ///
  /// ```swift
  /// "kiwi\u{1B}[2J".escapingControlCharacters()  // #"kiwi\u{1B}[2J"#
  /// ```
  ///
  /// - Returns: The escaped text; the text itself when it has no control character.
  /// - Complexity: O(*n*) in the length of the text.
  public func escapingControlCharacters() -> String {
    guard unicodeScalars.contains(where: \.isTerminalControl) else { return self }
    var escaped = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if scalar.isTerminalControl {
        escaped.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }
}

extension Unicode.Scalar {
  /// A C0 control, DEL, or a C1 control.
  fileprivate var isTerminalControl: Bool {
    value < 0x20 || (0x7F...0x9F).contains(value)
  }
}
