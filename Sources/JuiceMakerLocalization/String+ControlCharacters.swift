extension String {
  /// This text with control characters replaced by visible escapes, safe to print on a terminal.
  ///
  /// C0 controls (U+0000–U+001F, including ESC, tab, and newline), DEL (U+007F), and C1 controls
  /// (U+0080–U+009F) become `\u{1B}`-style escapes, so a name from a pack cannot move the cursor,
  /// change colours, or clear the screen. Bidi controls (U+202A–U+202E, U+2066–U+2069) and
  /// zero-width characters (U+200B–U+200D, U+2060, U+FEFF) are escaped too, so a name cannot
  /// reorder the text around it or pass for another name. Everything else, Hangul included, is
  /// kept.
  ///
  /// ```swift
  /// "kiwi\u{1B}[2J".escapingControlCharacters()  // #"kiwi\u{1B}[2J"#
  /// "a\u{202E}b".escapingControlCharacters()  // #"a\u{202E}b"#
  /// ```
  ///
  /// - Returns: The escaped text; the text itself when it has no control character.
  /// - Complexity: O(*n*) in the length of the text.
  package func escapingControlCharacters() -> String {
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
  /// A C0 control, DEL, a C1 control, or a bidi control or zero-width character.
  fileprivate var isTerminalControl: Bool {
    value < 0x20 || (0x7F...0x9F).contains(value) || isDeceptiveFormatting
  }

  /// A bidi control (U+202A–U+202E, U+2066–U+2069) or a zero-width character (U+200B–U+200D,
  /// U+2060, U+FEFF): invisible, it reorders or splits the text around it, so a name holding one
  /// can show as another.
  package var isDeceptiveFormatting: Bool {
    switch value {
    case 0x202A...0x202E, 0x2066...0x2069, 0x200B...0x200D, 0x2060, 0xFEFF: true
    default: false
    }
  }
}
