/// The columns text takes on a terminal, and text fitted to a number of columns.
///
/// East Asian Wide and Fullwidth characters (Hangul syllables, CJK ideographs, most
/// emoji) take two columns; combining marks, format characters such as the zero width
/// joiner, variation selectors and Hangul medial and final jamo take none; everything
/// else takes one.
enum DisplayWidth {
  /// The columns one Unicode scalar takes: 0, 1 or 2.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
    if isZeroWidth(scalar) { return 0 }
    return isWide(value) ? 2 : 1
  }

  private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    // Hangul medial vowels and final consonants join the syllable before them.
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return true
    default: return false
    }
  }

  /// Whether a scalar is East Asian Wide or Fullwidth (Unicode 15, `EastAsianWidth.txt`),
  /// by a binary search of the ranges below.
  static func isWide(_ value: UInt32) -> Bool {
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// The East Asian Wide (W) and Fullwidth (F) ranges, ascending.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18CD5,
    0x18D00...0x18D08, 0x1AFF0...0x1B2FB, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
    0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B,
    0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320,
    0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
    0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E,
    0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
    0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4,
    0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
    0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
    0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
    0x1F947...0x1F9FF, 0x1FA70...0x1FA7C, 0x1FA80...0x1FA88, 0x1FA90...0x1FABD,
    0x1FABF...0x1FAC5, 0x1FACE...0x1FADB, 0x1FAE0...0x1FAE8, 0x1FAF0...0x1FAF8,
    0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}

extension Character {
  /// Columns the character takes on a terminal: the widest of its scalars that take
  /// any, so that "e" plus a combining accent takes one and an emoji sequence two.
  var displayWidth: Int {
    var width = 0
    for scalar in unicodeScalars {
      width = max(width, DisplayWidth.of(scalar))
    }
    return width
  }
}

extension String {
  /// Columns the text takes on a terminal.
  var displayWidth: Int {
    // Printable ASCII, the usual case, is a column a byte: each byte is a character of its
    // own, one column wide.
    let ascii = utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { (0x20..<0x7F).contains($0) } ? bytes.count : nil
    }
    if let ascii, let width = ascii { return width }
    return reduce(0) { $0 + $1.displayWidth }
  }

  /// The text followed by spaces up to `width` columns.
  func padded(to width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - displayWidth))
  }

  /// The text cut to at most `width` columns, ending in "…" when cut.
  ///
  /// A wide character that would straddle the edge is left out, so the result may be one
  /// column narrower than `width`.
  func truncated(to width: Int) -> String {
    guard width > 0 else { return "" }
    guard displayWidth > width else { return self }
    var result = ""
    var used = 0
    for character in self {
      let columns = character.displayWidth
      if used + columns > width - 1 { break }
      result.append(character)
      used += columns
    }
    return result + "…"
  }

  /// The text cut or padded to exactly `width` columns.
  func fitted(to width: Int) -> String {
    truncated(to: width).padded(to: width)
  }
}

extension String {
  /// The text broken into lines of at most `width` columns, at spaces where it can be
  /// and inside a word only when the word alone is wider than a line.
  func wrapped(to width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
      let candidate = line.isEmpty ? word : line + " " + word
      if candidate.displayWidth <= width {
        line = candidate
        continue
      }
      if !line.isEmpty { lines.append(line) }
      line = ""
      for character in word {
        if line.displayWidth + character.displayWidth > width {
          lines.append(line)
          line = ""
        }
        line.append(character)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
