import Foundation

/// A strict JSON (RFC 8259) parser over UTF-8 bytes that reports where it failed.
///
/// It accepts a leading UTF-8 byte order mark, rejects invalid UTF-8 in strings,
/// limits nesting depth instead of recursing without bound, and rejects an object
/// that repeats a key, unless asked to keep the last copy and report the repetition
/// (string catalogs, which Xcode has been seen to write with a key twice).
package struct JSONParser {
  /// A key written twice in one object, when the last copy is kept.
  package struct DuplicateKey: Equatable, Sendable {
    /// The key.
    package let key: String
    /// The 1-based line and column of the copy kept, the last one.
    package let line: Int
    package let column: Int
    /// The 1-based line where the value of the copy dropped starts.
    package let droppedLine: Int

    package init(key: String, line: Int, column: Int, droppedLine: Int) {
      self.key = key
      self.line = line
      self.column = column
      self.droppedLine = droppedLine
    }
  }

  /// Why a document could not be parsed, and where.
  package struct Failure: Error, Equatable, Sendable {
    /// What is wrong.
    package let reason: String
    /// The 1-based line.
    package let line: Int
    /// The 1-based column, in bytes.
    package let column: Int
  }

  /// The deepest nesting of arrays and objects accepted.
  package static let maximumDepth = 256

  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  /// Whether a repeated key replaces the earlier copy rather than failing.
  private let keepsLastDuplicate: Bool
  private var duplicates: [DuplicateKey] = []
  /// Which members' values are checked but not built, and what stands in for them; see
  /// ``parseKeepingLastDuplicate(_:skippingAt:_:)``.
  private let skips: ((_ depth: Int, _ key: String) -> JSONValue?)?
  /// The depths `skips` is asked about, one bit each.
  private let skipDepths: UInt64

  private init(
    bytes: UnsafeBufferPointer<UInt8>, keepsLastDuplicate: Bool,
    skips: ((_ depth: Int, _ key: String) -> JSONValue?)? = nil, skipDepths: UInt64 = 0
  ) {
    self.bytes = bytes
    self.keepsLastDuplicate = keepsLastDuplicate
    self.skips = skips
    self.skipDepths = skipDepths
  }

  /// Parses one JSON document.
  ///
  /// - Parameter data: The document's bytes.
  /// - Returns: The root value.
  /// - Throws: `Failure` naming the line, column and reason.
  /// - Complexity: O(*n*) in the size of the document.
  package static func parse(_ data: [UInt8]) throws(Failure) -> JSONNode {
    try parse(data, keepingLastDuplicate: false).root
  }

  /// Parses one JSON document in which a key written twice in one object is not an error:
  /// the last copy is kept, in the place of the first, and the repetition is reported.
  ///
  /// - Parameter data: The document's bytes.
  /// - Returns: The root value and every repeated key, in document order.
  /// - Throws: `Failure` naming the line, column and reason.
  /// - Complexity: O(*n*) in the size of the document.
  package static func parseKeepingLastDuplicate(
    _ data: [UInt8]
  ) throws(Failure) -> (root: JSONNode, duplicates: [DuplicateKey]) {
    try parse(data, keepingLastDuplicate: true)
  }

  /// Parses one JSON document as ``parseKeepingLastDuplicate(_:)`` does, without building the
  /// values of the members a reader will not look at.
  ///
  /// A skipped value is checked as strictly as any other, so the same documents fail at the
  /// same places, but the value `skipping` gives stands in for it in the tree, at its line and
  /// column; a key written twice inside it is neither reported nor refused.
  ///
  /// - Parameters:
  ///   - data: The document's bytes.
  ///   - depths: The depths, 1 to 63, of the objects whose members may be skipped: the root
  ///     object's members are at depth 1, their objects' members at 2.
  ///   - skipping: For the member `key` of an object nested `depth` deep, one of `depths`, the
  ///     value that stands in for its value, or `nil` to parse it.
  /// - Returns: The root value and every repeated key outside skipped values, in document
  ///   order.
  /// - Throws: `Failure` naming the line, column and reason.
  /// - Complexity: O(*n*) in the size of the document.
  package static func parseKeepingLastDuplicate(
    _ data: [UInt8], skippingAt depths: [Int],
    _ skipping: (_ depth: Int, _ key: String) -> JSONValue?
  ) throws(Failure) -> (root: JSONNode, duplicates: [DuplicateKey]) {
    let mask = depths.reduce(UInt64(0)) { (1...63).contains($1) ? $0 | 1 << UInt64($1) : $0 }
    return try withoutActuallyEscaping(skipping) { skipping throws(Failure) in
      try parse(data, keepingLastDuplicate: true, skipping: (skipping, mask))
    }
  }

  /// The string value of the root object's first member, when that member is `key`: what a
  /// reader needs to know before it chooses what to skip, such as a string catalog's
  /// `sourceLanguage`, which Xcode writes first.
  ///
  /// Nothing after the value is read, so the document may still be malformed.
  ///
  /// - Parameters:
  ///   - data: The document's bytes.
  ///   - key: The member's key.
  /// - Returns: The value, or `nil` when the document does not start with that member and a
  ///   string value.
  /// - Complexity: O(*k*) in the length of the member.
  package static func leadingString(_ data: [UInt8], key: String) -> String? {
    data.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, keepsLastDuplicate: true)
      return try? parser.parseLeadingString(key: key)
    }
  }

  private mutating func parseLeadingString(key: String) throws(Failure) -> String? {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
    for expected in [UInt8(ascii: "{"), UInt8(ascii: "\"")] {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == expected else { return nil }
      if expected == UInt8(ascii: "{") { offset += 1 }
    }
    guard try parseString() == key else { return nil }
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
    offset += 1
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
    return try parseString()
  }

  private static func parse(
    _ data: [UInt8], keepingLastDuplicate: Bool,
    skipping: (standIn: (_ depth: Int, _ key: String) -> JSONValue?, depths: UInt64)? = nil
  ) throws(Failure) -> (root: JSONNode, duplicates: [DuplicateKey]) {
    let result: Result<(JSONNode, [DuplicateKey]), Failure> = data.withUnsafeBufferPointer {
      buffer in
      var parser = JSONParser(
        bytes: buffer, keepsLastDuplicate: keepingLastDuplicate, skips: skipping?.standIn,
        skipDepths: skipping?.depths ?? 0)
      do throws(Failure) {
        let root = try parser.parseDocument()
        return .success((root, parser.duplicates))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private mutating func parseDocument() throws(Failure) -> JSONNode {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      offset = 3
      lineStart = 3
    }
    skipWhitespace()
    if offset == bytes.count {
      throw fail("the file is empty; expected a JSON object")
    }
    let root = try parseValue()
    skipWhitespace()
    if offset != bytes.count {
      throw fail("unexpected \(describeByte()) after the end of the JSON value")
    }
    return root
  }

  private var column: Int { offset - lineStart + 1 }

  private func fail(_ reason: String) -> Failure {
    Failure(reason: reason, line: line, column: column)
  }

  private func describeByte() -> String {
    guard offset < bytes.count else { return "end of file" }
    let byte = bytes[offset]
    if byte >= 0x21 && byte < 0x7F {
      return "'\(Character(Unicode.Scalar(byte)))'"
    }
    return "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09, 0x0D:
        offset += 1
      case 0x0A:
        offset += 1
        line += 1
        lineStart = offset
      default:
        return
      }
    }
  }

  private mutating func parseValue() throws(Failure) -> JSONNode {
    let startLine = line
    let startColumn = column
    guard offset < bytes.count else {
      throw fail("the document ends where a value was expected")
    }
    let value: JSONValue
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      value = try parseObject()
    case UInt8(ascii: "["):
      value = try parseArray()
    case UInt8(ascii: "\""):
      value = .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      value = .number(try parseNumber())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      value = .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      value = .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      value = .null
    default:
      throw fail("unexpected \(describeByte()); expected a JSON value")
    }
    return JSONNode(value: value, line: startLine, column: startColumn)
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    if depth > Self.maximumDepth {
      throw fail("arrays and objects are nested more than \(Self.maximumDepth) levels deep")
    }
  }

  private mutating func parseObject() throws(Failure) -> JSONValue {
    try enter()
    offset += 1
    var members: [JSONMember] = []
    // Small objects check their few keys directly; hashing every key costs more.
    var seen: [String: Int] = [:]
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
      offset += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        throw fail("unexpected \(describeByte()); expected a quoted key")
      }
      let keyLine = line
      let keyColumn = column
      let key = try parseString()
      let earlier: Int?
      if members.count < 16 {
        earlier = members.firstIndex { $0.key == key }
      } else {
        if seen.isEmpty {
          for (index, member) in members.enumerated() { seen[member.key] = index }
        }
        earlier = seen[key]
        if earlier == nil { seen[key] = members.count }
      }
      if earlier != nil, !keepsLastDuplicate {
        throw Failure(
          reason: "the key \"\(key.abridgedInProblem)\" appears twice in one object", line: keyLine,
          column: keyColumn)
      }
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
        throw fail(
          "unexpected \(describeByte()); expected ':' after the key \"\(key.abridgedInProblem)\"")
      }
      offset += 1
      skipWhitespace()
      let node: JSONNode
      if depth < 64, skipDepths & 1 << UInt64(depth) != 0, let skips,
        let standIn = skips(depth, key)
      {
        let (valueLine, valueColumn) = (line, column)
        try skipValue()
        node = JSONNode(value: standIn, line: valueLine, column: valueColumn)
      } else {
        node = try parseValue()
      }
      let member = JSONMember(key: key, node: node)
      if let earlier {
        duplicates.append(
          DuplicateKey(
            key: key, line: keyLine, column: keyColumn, droppedLine: members[earlier].node.line))
        members[earlier] = member
      } else {
        members.append(member)
      }
      skipWhitespace()
      guard offset < bytes.count else {
        throw fail("the document ends inside an object; expected ',' or '}'")
      }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == UInt8(ascii: "}") {
        offset += 1
        depth -= 1
        return .object(members)
      }
      throw fail("unexpected \(describeByte()); expected ',' or '}'")
    }
  }

  private mutating func parseArray() throws(Failure) -> JSONValue {
    try enter()
    offset += 1
    var elements: [JSONNode] = []
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
      offset += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard offset < bytes.count else {
        throw fail("the document ends inside an array; expected ',' or ']'")
      }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == UInt8(ascii: "]") {
        offset += 1
        depth -= 1
        return .array(elements)
      }
      throw fail("unexpected \(describeByte()); expected ',' or ']'")
    }
  }

  // MARK: - Skipping

  /// Checks one value as ``parseValue()`` does, building nothing.
  private mutating func skipValue() throws(Failure) {
    guard offset < bytes.count else {
      throw fail("the document ends where a value was expected")
    }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      try skipContainer(closing: UInt8(ascii: "}"), hasKeys: true)
    case UInt8(ascii: "["):
      try skipContainer(closing: UInt8(ascii: "]"), hasKeys: false)
    case UInt8(ascii: "\""):
      try skipString()
    default:
      _ = try parseValue()
    }
  }

  /// Checks an object or an array, building nothing.
  private mutating func skipContainer(closing: UInt8, hasKeys: Bool) throws(Failure) {
    try enter()
    offset += 1
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == closing {
      offset += 1
      depth -= 1
      return
    }
    let kind = hasKeys ? "an object" : "an array"
    let separators = hasKeys ? "',' or '}'" : "',' or ']'"
    while true {
      skipWhitespace()
      if hasKeys {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
          throw fail("unexpected \(describeByte()); expected a quoted key")
        }
        // Built, for the message should the colon be missing; keys are short.
        let key = try parseString()
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
          throw fail(
            "unexpected \(describeByte()); expected ':' after the key \"\(key.abridgedInProblem)\"")
        }
        offset += 1
        skipWhitespace()
      }
      try skipValue()
      skipWhitespace()
      guard offset < bytes.count else {
        throw fail("the document ends inside \(kind); expected \(separators)")
      }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == closing {
        offset += 1
        depth -= 1
        return
      }
      throw fail("unexpected \(describeByte()); expected \(separators)")
    }
  }

  /// Checks a string, building it only when it holds an escape.
  private mutating func skipString() throws(Failure) {
    let start = offset
    offset += 1
    var ascii = true
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        if !ascii {
          var decoder = UTF8()
          var iterator = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<offset]).makeIterator()
          decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break decoding
            case .error: throw fail("the string holds bytes that are not valid UTF-8")
            }
          }
        }
        offset += 1
        return
      }
      if byte == UInt8(ascii: "\\") {
        offset = start
        _ = try parseString()
        return
      }
      if byte < 0x20 {
        throw fail(
          "a control character (byte 0x\(String(byte, radix: 16))) must be escaped in a string")
      }
      if byte >= 0x80 { ascii = false }
      offset += 1
    }
    throw fail("the document ends inside a string")
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
    let count = literal.utf8CodeUnitCount
    let matches = literal.withUTF8Buffer { expected in
      guard offset + count <= bytes.count else { return false }
      for index in 0..<count where bytes[offset + index] != expected[index] {
        return false
      }
      return true
    }
    guard matches else {
      throw fail("unexpected \(describeByte()); expected a JSON value")
    }
    offset += count
  }

  private mutating func parseNumber() throws(Failure) -> String {
    let start = offset
    if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
    guard offset < bytes.count, isDigit(bytes[offset]) else {
      throw fail("a number needs a digit after '-'")
    }
    if bytes[offset] == UInt8(ascii: "0") {
      offset += 1
      if offset < bytes.count, isDigit(bytes[offset]) {
        throw fail("a number cannot start with 0 followed by more digits")
      }
    } else {
      while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
      offset += 1
      guard offset < bytes.count, isDigit(bytes[offset]) else {
        throw fail("a number needs a digit after '.'")
      }
      while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }
    if offset < bytes.count,
      bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")
    {
      offset += 1
      if offset < bytes.count,
        bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")
      {
        offset += 1
      }
      guard offset < bytes.count, isDigit(bytes[offset]) else {
        throw fail("a number needs a digit in its exponent")
      }
      while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func parseString() throws(Failure) -> String {
    offset += 1
    let start = offset
    var ascii = true
    // Fast path: no escapes.
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        guard let text = Self.validString(slice, ascii: ascii) else {
          throw fail("the string holds bytes that are not valid UTF-8")
        }
        offset += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        throw fail(
          "a control character (byte 0x\(String(byte, radix: 16))) must be escaped in a string")
      }
      if byte >= 0x80 { ascii = false }
      offset += 1
    }
    var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        guard let text = String(validating: scratch, as: UTF8.self) else {
          throw fail("the string holds bytes that are not valid UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        offset += 1
        try parseEscape(into: &scratch)
      case 0..<0x20:
        throw fail(
          "a control character (byte 0x\(String(byte, radix: 16))) must be escaped in a string")
      default:
        scratch.append(byte)
        offset += 1
      }
    }
    throw fail("the document ends inside a string")
  }

  /// The string of UTF-8 bytes, or `nil` when they are not valid UTF-8.
  ///
  /// `String(decoding:as:)` takes the standard library's fast path, which `String(validating:as:)`
  /// over a buffer does not; it repairs what is not valid, so bytes that are not all ASCII are
  /// valid when the string holds them unchanged.
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  ///   - ascii: Whether every byte is below 0x80, which is always valid.
  package static func validString(_ bytes: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    if ascii { return text }
    let unchanged =
      text.utf8.withContiguousStorageIfAvailable { stored in
        guard let storedBase = stored.baseAddress, let base = bytes.baseAddress else {
          return stored.count == bytes.count
        }
        return stored.count == bytes.count && memcmp(storedBase, base, bytes.count) == 0
      } ?? text.utf8.elementsEqual(bytes)
    return unchanged ? text : nil
  }

  private mutating func parseEscape(into scratch: inout [UInt8]) throws(Failure) {
    guard offset < bytes.count else { throw fail("the document ends inside a string") }
    let byte = bytes[offset]
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): scratch.append(0x22)
    case UInt8(ascii: "\\"): scratch.append(0x5C)
    case UInt8(ascii: "/"): scratch.append(0x2F)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try parseHex4()
      if (0xD800..<0xDC00).contains(scalar) {
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
          bytes[offset + 1] == UInt8(ascii: "u")
        else {
          throw fail("an unpaired UTF-16 surrogate escape")
        }
        offset += 2
        let low = try parseHex4()
        guard (0xDC00..<0xE000).contains(low) else {
          throw fail("an unpaired UTF-16 surrogate escape")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00..<0xE000).contains(scalar) {
        throw fail("an unpaired UTF-16 surrogate escape")
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw fail("an escape that is not a Unicode scalar")
      }
      scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
    default:
      offset -= 1
      throw fail("unknown escape \\\(describeByte()) in a string")
    }
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard offset < bytes.count else { throw fail("the document ends inside a \\u escape") }
      let byte = bytes[offset]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw fail("a \\u escape needs four hex digits")
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }
}
