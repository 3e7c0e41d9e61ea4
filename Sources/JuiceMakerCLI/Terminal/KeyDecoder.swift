/// Turns the bytes read from a terminal in raw mode into keys.
///
/// Escape sequences (`ESC [ A` for ↑, `ESC [ 5 ~` for PgUp, `ESC O B` in application
/// mode) and UTF-8 characters may arrive split across reads, so the decoder keeps an
/// incomplete tail until more bytes come. A lone `ESC` is the Esc key only when nothing
/// follows it for a short while: the caller waits `escapeTimeout` and then calls
/// `flush()`.
struct KeyDecoder: Sendable {
  /// How long to wait after a lone `ESC` before taking it as the Esc key.
  static let escapeTimeout: Duration = .milliseconds(50)

  private var pending: [UInt8] = []

  /// Whether bytes are waiting for the rest of a sequence.
  var isWaiting: Bool { !pending.isEmpty }

  /// Decodes the bytes read, keeping an incomplete sequence for the next call.
  mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    while let (key, used) = Self.decode(pending[...]) {
      keys.append(key)
      pending.removeFirst(used)
    }
    return keys
  }

  /// Takes whatever is waiting as complete: a lone `ESC` becomes the Esc key, and a
  /// cut sequence is dropped.
  mutating func flush() -> [Key] {
    defer { pending.removeAll() }
    guard let first = pending.first else { return [] }
    if first == 0x1B {
      return pending.count == 1 ? [.escape] : [.unknown]
    }
    return [.unknown]
  }

  /// One key from the front of `bytes` and how many bytes it used, or `nil` when the
  /// bytes end inside a sequence.
  private static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B: return escapeSequence(bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x09: return (.tab, 1)
    case 0x03: return (.interrupt, 1)
    case 0x04: return (.endOfInput, 1)
    case 0x0C: return (.redraw, 1)
    case 0x00..<0x20: return (.unknown, 1)
    case 0x20..<0x7F: return (.character(Character(Unicode.Scalar(first))), 1)
    default: return utf8Character(bytes)
    }
  }

  private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      // CSI: parameter and intermediate bytes, then one final byte in 0x40...0x7E.
      var index = start + 2
      while index < bytes.endIndex {
        let byte = bytes[index]
        if (0x40...0x7E).contains(byte) {
          let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
          return (csiKey(final: byte, parameters: parameters), index - start + 1)
        }
        guard (0x20...0x3F).contains(byte) else { return (.unknown, index - start) }
        index += 1
      }
      return nil
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return nil }
      let key: Key =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        default: .unknown
        }
      return (key, 3)
    case 0x1B:
      // Two escapes: the first was the Esc key on its own.
      return (.escape, 1)
    default:
      // Alt with a key: take the key and ignore Alt.
      guard let (key, used) = decode(bytes.dropFirst()) else { return nil }
      return (key, used + 1)
    }
  }

  private static func csiKey(final: UInt8, parameters: String) -> Key {
    // Modifiers (`1;5A` for Ctrl-↑) are ignored: the first parameter names the key.
    let first = parameters.split(separator: ";").first.map(String.init) ?? ""
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch first {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      case "5": return .pageUp
      case "6": return .pageDown
      default: return .unknown
      }
    default: return .unknown
    }
  }

  private static func utf8Character(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    let length: Int
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (.unknown, 1)
    }
    let start = bytes.startIndex
    var available = 1
    while available < length, start + available < bytes.endIndex {
      guard (0x80...0xBF).contains(bytes[start + available]) else {
        return (.unknown, available)
      }
      available += 1
    }
    guard available == length else { return nil }
    let encoded = bytes[start..<(start + length)]
    guard let text = String(validating: encoded, as: UTF8.self), let character = text.first else {
      return (.unknown, length)
    }
    return (.character(character), length)
  }
}
