/// Writes one JSON document into bytes, member by member, for the HTTP API's answers.
///
/// The API answers thousands of requests a second; encoding through `JSONEncoder` cost
/// more than the rest of an answer, so its documents are written directly. Keys are
/// written in the order given.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []
  /// Whether the container being written needs a comma before its next value.
  private var needsComma = false

  init(capacity: Int = 256) {
    bytes.reserveCapacity(capacity)
  }

  /// Writes an object whose members `body` writes.
  mutating func object(_ body: (inout JSONWriter) -> Void) {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
    body(&self)
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Writes an array whose values `body` writes.
  mutating func array(_ body: (inout JSONWriter) -> Void) {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
    body(&self)
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes a member's key; its value follows.
  mutating func key(_ key: String) {
    separate()
    quote(key)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  mutating func string(_ value: String) {
    separate()
    quote(value)
    needsComma = true
  }

  mutating func int(_ value: Int) {
    separate()
    bytes.append(contentsOf: String(value).utf8)
    needsComma = true
  }

  mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
    needsComma = true
  }

  mutating func null() {
    separate()
    bytes.append(contentsOf: "null".utf8)
    needsComma = true
  }

  /// Writes a document written elsewhere as the next value.
  mutating func raw(_ json: [UInt8]) {
    separate()
    bytes.append(contentsOf: json)
    needsComma = true
  }

  // MARK: - Members

  mutating func member(_ name: String, _ value: String) {
    key(name)
    string(value)
  }

  mutating func member(_ name: String, _ value: Int) {
    key(name)
    int(value)
  }

  mutating func member(_ name: String, _ value: Int64) {
    key(name)
    int(Int(value))
  }

  mutating func member(_ name: String, _ value: Bool) {
    key(name)
    bool(value)
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  /// Writes a string literal: `"`, `\` and control characters escaped, the rest as UTF-8.
  private mutating func quote(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    // Most text needs no escape: copied whole.
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20, 0x7F:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [
          0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
          hex[Int(byte & 0xF)],
        ])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
