import JuiceMakerKit

/// Seeded mutations of byte strings, for fuzzing: bit flips, random bytes,
/// insertions of JSON and format-specifier punctuation, deletions, truncations,
/// duplications and splices from other inputs.
struct Mutator {
  private(set) var random: SplitMix64

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  /// Tokens worth inserting: JSON structure, format specifiers, and numbers and
  /// bytes that parsers get wrong.
  static let tokens: [[UInt8]] =
    [
      "{", "}", "[", "]", "\"", ",", ":", "%", "$", "@", "#", "\\", "\\u", "\\ud800", "-", "0",
      "1e400", "9223372036854775808", "-0", "1.5", "null", "true", "%@", "%lld", "%1$@",
      "%#@a@", "%arg", "%%", "%0$", "%99999999999999999999$@", "%'.2f", "%-8.3e", "%*d",
      "%2$*1$x", "%.*g", "%#o", "%+a", "%lc", "%5s", "% 05X", "%.4096f", "%4097d", "%hhu",
      "%Lf", "%qd", "%*0$d", "%n", "'", "*", ".", "\"id\"", "\"fruit\"",
      "\"count\"", "\"stock\"", "\"juices\"", "\"fruits\"", "\"ingredients\"", "  ", "\n",
    ].map { Array($0.utf8) } + [
      [0xEF, 0xBB, 0xBF], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x00], [0x1B], [0xE2, 0x80],
    ]

  mutating func int(below bound: Int) -> Int {
    bound <= 1 ? 0 : Int(random.next() % UInt64(bound))
  }

  /// One to four mutations of `bytes`, some splicing from `others`.
  mutating func mutate(_ bytes: [UInt8], others: [[UInt8]]) -> [UInt8] {
    var result = bytes
    for _ in 0...int(below: 4) {
      mutateOnce(&result, others: others)
    }
    return result
  }

  private mutating func mutateOnce(_ bytes: inout [UInt8], others: [[UInt8]]) {
    let position = int(below: bytes.count + 1)
    switch int(below: 9) {
    case 0 where !bytes.isEmpty:
      let index = min(position, bytes.count - 1)
      bytes[index] ^= 1 << UInt8(int(below: 8))
    case 1 where !bytes.isEmpty:
      bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
    case 2, 3:
      bytes.insert(contentsOf: Self.tokens[int(below: Self.tokens.count)], at: position)
    case 4 where !bytes.isEmpty:
      let end = min(bytes.count, position + 1 + int(below: 16))
      bytes.removeSubrange(min(position, end)..<end)
    case 5:
      bytes.removeSubrange(position..<bytes.count)
    case 6 where !bytes.isEmpty:
      let start = min(position, bytes.count - 1)
      let end = min(bytes.count, start + 1 + int(below: 64))
      bytes.insert(contentsOf: bytes[start..<end], at: int(below: bytes.count + 1))
    case 7:
      let other = others[int(below: others.count)]
      guard !other.isEmpty else { return }
      let start = int(below: other.count)
      let end = min(other.count, start + 1 + int(below: 128))
      bytes.insert(contentsOf: other[start..<end], at: position)
    default:
      let token = Self.tokens[int(below: 5)]
      for _ in 0..<(1 + int(below: 300)) { bytes.insert(contentsOf: token, at: position) }
    }
  }
}

// MARK: - Token-level mutations

extension Mutator {
  /// JSON values and keys that packs get wrong, each well-formed on its own.
  static let values: [String] = [
    #""kiwi""#, #""""#, #""Kiwi""#, #""kiwi fruit""#, #""키위""#, #""\u001b[2J""#, #""a-""#,
    #""\u0000""#, "\"" + String(repeating: "k", count: 129) + "\"", #""10""#, "0", "-0", "-1",
    "1", "1.5", "1e400", "1E2", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "null", "true", "false", "{}", "[]", "[1]", #"{"id": "x"}"#,
    #"[{"fruit": "kiwi", "count": 1}]"#, #"[{"id": "kiwi"}, {"id": "kiwi"}]"#,
  ]
  static let keys: [String] = [
    #""id""#, #""stock""#, #""fruit""#, #""count""#, #""fruits""#, #""juices""#,
    #""ingredients""#, #""colour""#, #""""#, #""\u0069d""#,
  ]

  /// Replaces one value or key of a well-formed document with another, so the result
  /// stays well-formed and exercises the pack decoder rather than the parser.
  mutating func mutateToken(_ bytes: [UInt8]) -> [UInt8] {
    let tokens = Self.valueTokens(bytes)
    guard !tokens.isEmpty else { return bytes }
    let token = tokens[int(below: tokens.count)]
    let replacement =
      token.isKey
      ? Self.keys[int(below: Self.keys.count)] : Self.values[int(below: Self.values.count)]
    var result = bytes
    result.replaceSubrange(token.range, with: Array(replacement.utf8))
    return result
  }

  /// The ranges of strings, numbers and literals in a JSON text, each marked as a key
  /// or not.
  static func valueTokens(_ bytes: [UInt8]) -> [(range: Range<Int>, isKey: Bool)] {
    var tokens: [(range: Range<Int>, isKey: Bool)] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
          end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        end = min(end + 1, bytes.count)
        var next = end
        while next < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[next]) { next += 1 }
        tokens.append((index..<end, next < bytes.count && bytes[next] == UInt8(ascii: ":")))
        index = end
      } else if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte)
        || [UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n")].contains(byte)
      {
        var end = index
        while end < bytes.count, !" \n\t\r,]}:".utf8.contains(bytes[end]) { end += 1 }
        tokens.append((index..<end, false))
        index = end
      } else {
        index += 1
      }
    }
    return tokens
  }
}
