import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// Where a string's bytes are: in the document, or in `unescaped` once its escapes are
  /// replaced.
  private struct Span {
    var start: Int
    var count: Int
    var escaped: Bool
  }

  private typealias Token = JSONDocument.Token

  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0
  private var depth = 0
  /// Whether a repeated key replaces the earlier copy rather than failing.
  private let keepsLastDuplicate: Bool
  private var duplicates: [DuplicateKey] = []
  /// Which members' values are checked but not built, and what stands in for them; see
  /// ``parseKeepingLastDuplicate(_:skippingAt:_:)``.
  private let skips: ((_ depth: Int, _ key: String) -> JSONValue?)?
  /// The depths `skips` is asked about, one bit each.
  private let skipDepths: UInt64
  // What the document is made of; see `JSONDocument`.
  private var tokens = PlainBuffer<Token>(capacity: 16)
  private var children = PlainBuffer<UInt32>(capacity: 16)
  private var unescaped: [UInt8] = []
  private var standIns: [JSONValue] = []
  /// The children of the objects and arrays being parsed, the innermost's last; each moves
  /// to `children` in one run once its container closes.
  private var open = PlainBuffer<UInt32>(capacity: 64)
  /// Where the document's lines start, once a repeated key needs a line named.
  private var lines: LineTable?

  private init(
    bytes: UnsafeBufferPointer<UInt8>, keepsLastDuplicate: Bool,
    skips: ((_ depth: Int, _ key: String) -> JSONValue?)? = nil, skipDepths: UInt64 = 0
  ) {
    self.bytes = bytes
    self.keepsLastDuplicate = keepsLastDuplicate
    self.skips = skips
    self.skipDepths = skipDepths
  }

  /// Frees the memory of a parse no document took over.
  private func release() {
    tokens.deallocate()
    children.deallocate()
    open.deallocate()
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
  /// same places, but the value `skipping` gives stands in for it in the document, at its line and
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
      defer { parser.release() }
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
    guard text(of: try scanString()) == key else { return nil }
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
    offset += 1
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
    return text(of: try scanString())
  }

  private static func parse(
    _ data: [UInt8], keepingLastDuplicate: Bool,
    skipping: (standIn: (_ depth: Int, _ key: String) -> JSONValue?, depths: UInt64)? = nil
  ) throws(Failure) -> (root: JSONNode, duplicates: [DuplicateKey]) {
    let result: Result<(JSONDocument, [DuplicateKey]), Failure> = data.withUnsafeBufferPointer {
      buffer in
      var parser = JSONParser(
        bytes: buffer, keepsLastDuplicate: keepingLastDuplicate, skips: skipping?.standIn,
        skipDepths: skipping?.depths ?? 0)
      do throws(Failure) {
        try parser.parseDocument()
        // The document owns the parser's memory from here, but for the open children.
        parser.open.deallocate()
        let document = JSONDocument(
          bytes: data, tokens: parser.tokens, children: parser.children,
          unescaped: parser.unescaped, standIns: parser.standIns)
        return .success((document, parser.duplicates))
      } catch {
        parser.release()
        return .failure(error)
      }
    }
    let (document, duplicates) = try result.get()
    return (JSONNode(document: document, index: 0), duplicates)
  }

  private mutating func parseDocument() throws(Failure) {
    guard bytes.count < Token.documentLimit else {
      throw fail("the document is larger than \(Token.documentLimit >> 20) MiB")
    }
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      offset = 3
    }
    // Room for a token every 4 bytes and a child every 8, more than packs and catalogs
    // hold, and for every string unescaped, so that the arrays are not copied as they grow;
    // pages never touched cost nothing.
    tokens.reserve(bytes.count / 4 + 16)
    children.reserve(bytes.count / 8 + 16)
    unescaped.reserveCapacity(bytes.count)
    skipWhitespace()
    if offset == bytes.count {
      throw fail("the file is empty; expected a JSON object")
    }
    try parseValue()
    skipWhitespace()
    if offset != bytes.count {
      throw fail("unexpected \(describeByte()) after the end of the JSON value")
    }
  }

  /// A failure here; its line and column are found once it has happened.
  private func fail(_ reason: String) -> Failure {
    let (line, column) = LineTable(bytes).position(of: offset)
    return Failure(reason: reason, line: line, column: column)
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
      case 0x20, 0x09, 0x0A, 0x0D:
        offset += 1
      default:
        return
      }
    }
  }

  /// A token of `kind` that starts here.
  private func token(_ kind: Token.Kind, first: Int = 0, count: Int = 0) -> Token {
    Token(
      kind: kind, offset: offset, first: UInt32(truncatingIfNeeded: first),
      count: UInt32(truncatingIfNeeded: count))
  }

  /// The 1-based line and column of the byte at `offset`, for a repeated key.
  private mutating func position(of offset: Int) -> (line: Int, column: Int) {
    let table = lines ?? LineTable(bytes)
    lines = table
    return table.position(of: offset)
  }

  /// Parses one value and appends its token, then its children's.
  private mutating func parseValue() throws(Failure) {
    guard offset < bytes.count else {
      throw fail("the document ends where a value was expected")
    }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      try parseObject()
    case UInt8(ascii: "["):
      try parseArray()
    case UInt8(ascii: "\""):
      try appendString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      var number = token(.number)
      let start = offset
      try scanNumber()
      (number.first, number.count) = (
        UInt32(truncatingIfNeeded: start), UInt32(truncatingIfNeeded: offset - start)
      )
      tokens.append(number)
    case UInt8(ascii: "t"):
      let literal = token(.true)
      try expectLiteral("true")
      tokens.append(literal)
    case UInt8(ascii: "f"):
      let literal = token(.false)
      try expectLiteral("false")
      tokens.append(literal)
    case UInt8(ascii: "n"):
      let literal = token(.null)
      try expectLiteral("null")
      tokens.append(literal)
    default:
      throw fail("unexpected \(describeByte()); expected a JSON value")
    }
  }

  /// Scans the string that starts here and appends its token.
  @discardableResult
  private mutating func appendString() throws(Failure) -> Span {
    var string = token(.string)
    let span = try scanString()
    (string.first, string.count, string.escaped) = (
      UInt32(truncatingIfNeeded: span.start), UInt32(truncatingIfNeeded: span.count),
      span.escaped
    )
    tokens.append(string)
    return span
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    if depth > Self.maximumDepth {
      throw fail("arrays and objects are nested more than \(Self.maximumDepth) levels deep")
    }
  }

  /// Ends the object or array whose token is at `container` and whose children are
  /// `open[base...]`.
  private mutating func close(_ container: Int, openedAt base: Int) {
    tokens[container].first = UInt32(truncatingIfNeeded: children.count)
    tokens[container].count = UInt32(truncatingIfNeeded: open.count - base)
    children.append(
      contentsOf: UnsafeBufferPointer(start: open.base + base, count: open.count - base))
    open.removeLast(open.count - base)
    offset += 1
    depth -= 1
  }

  private mutating func parseObject() throws(Failure) {
    let container = tokens.count
    tokens.append(token(.object))
    try enter()
    offset += 1
    let base = open.count
    // Small objects check their few keys directly; hashing every key costs more.
    var seen = KeyTable()
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
      close(container, openedAt: base)
      return
    }
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        throw fail("unexpected \(describeByte()); expected a quoted key")
      }
      let key = tokens.count
      let span = try appendString()
      let hash = seen.isHashing ? withKeyBytes(span, KeyTable.hash) : 0
      let earlier = findKey(span, hash: hash, from: base, in: seen)
      if earlier != nil, !keepsLastDuplicate {
        let (line, column) = position(of: tokens[key].offset)
        throw Failure(
          reason: "the key \"\(text(of: span).abridgedInProblem)\" appears twice in one object",
          line: line, column: column)
      }
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
        throw fail(
          "unexpected \(describeByte()); expected ':' after the key \"\(text(of: span).abridgedInProblem)\""
        )
      }
      offset += 1
      skipWhitespace()
      if depth < 64, skipDepths & 1 << UInt64(depth) != 0, let skips,
        let standIn = skips(depth, text(of: span))
      {
        tokens.append(token(.standIn, first: standIns.count))
        standIns.append(standIn)
        try skipValue()
      } else {
        try parseValue()
      }
      if let earlier {
        let dropped = Int(open[base + earlier])
        let (line, column) = position(of: tokens[key].offset)
        duplicates.append(
          DuplicateKey(
            key: text(of: span), line: line, column: column,
            droppedLine: position(of: tokens[dropped + 1].offset).line))
        open[base + earlier] = UInt32(truncatingIfNeeded: key)
      } else {
        open.append(UInt32(truncatingIfNeeded: key))
        if seen.isHashing {
          seen.insert(hash: hash, at: open.count - 1 - base)
        } else if open.count - base == KeyTable.smallest {
          for position in base..<open.count {
            seen.insert(
              hash: withKeyBytes(at: Int(open[position]), KeyTable.hash), at: position - base)
          }
        }
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
        close(container, openedAt: base)
        return
      }
      throw fail("unexpected \(describeByte()); expected ',' or '}'")
    }
  }

  private mutating func parseArray() throws(Failure) {
    let container = tokens.count
    tokens.append(token(.array))
    try enter()
    offset += 1
    let base = open.count
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
      close(container, openedAt: base)
      return
    }
    while true {
      skipWhitespace()
      open.append(UInt32(truncatingIfNeeded: tokens.count))
      try parseValue()
      skipWhitespace()
      guard offset < bytes.count else {
        throw fail("the document ends inside an array; expected ',' or ']'")
      }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == UInt8(ascii: "]") {
        close(container, openedAt: base)
        return
      }
      throw fail("unexpected \(describeByte()); expected ',' or ']'")
    }
  }

  // MARK: - Keys

  /// The text of a string the parser scanned.
  private func text(of span: Span) -> String {
    withKeyBytes(span) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the bytes of a scanned string, its escapes replaced.
  private func withKeyBytes<Result>(
    _ span: Span, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let range = span.start..<span.start + span.count
    if span.escaped {
      return unescaped.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }
    return body(UnsafeBufferPointer(rebasing: bytes[range]))
  }

  /// Calls `body` with the bytes of the key whose token is at `index`.
  private func withKeyBytes<Result>(
    at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let key = tokens[index]
    return withKeyBytes(
      Span(start: Int(key.first), count: Int(key.count), escaped: key.escaped), body)
  }

  /// The position among the members of the object being parsed, whose key tokens are
  /// `open[base...]`, of the one whose key is the string at `span`; `hash` is its hash when
  /// `table` is hashing.
  private func findKey(_ span: Span, hash: Int, from base: Int, in table: KeyTable) -> Int? {
    withKeyBytes(span) { key in
      let matches = { (position: Int) -> Bool in
        let index = Int(self.open[base + position])
        guard Int(self.tokens[index].count) == key.count else { return false }
        return self.withKeyBytes(at: index) { other in
          guard let otherBase = other.baseAddress, let keyBase = key.baseAddress else {
            return true
          }
          return Bytes.equal(otherBase, keyBase, count: key.count)
        }
      }
      guard table.isHashing else { return (0..<open.count - base).first(where: matches) }
      return table.first(hash: hash, where: matches)
    }
  }

  /// The hashes of the keys of one object, once it has `smallest` members; before that, its
  /// keys are compared in turn.
  private struct KeyTable {
    static let smallest = 16
    /// Each member's position plus one, at a slot its hash chooses (or the next free one),
    /// or 0; a power of two long, at most half full.
    private var slots: [Int32] = []
    /// Each member's hash, by position.
    private var hashes: [Int] = []

    var isHashing: Bool { !slots.isEmpty }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
      var hasher = Hasher()
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
      return hasher.finalize()
    }

    /// The first position of a member whose key has the hash `hash` and that `matches`.
    func first(hash: Int, where matches: (Int) -> Bool) -> Int? {
      let mask = slots.count - 1
      var slot = hash & mask
      while slots[slot] != 0 {
        let position = Int(slots[slot]) - 1
        if hashes[position] == hash, matches(position) { return position }
        slot = (slot + 1) & mask
      }
      return nil
    }

    /// Records that the member at `position`, the next, has a key of hash `hash`.
    mutating func insert(hash: Int, at position: Int) {
      hashes.append(hash)
      if hashes.count * 2 > slots.count {
        slots = Array(repeating: 0, count: max(64, slots.count * 2))
        for (earlier, hash) in hashes.enumerated() { place(hash, earlier) }
      } else {
        place(hash, position)
      }
    }

    private mutating func place(_ hash: Int, _ position: Int) {
      let mask = slots.count - 1
      var slot = hash & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(truncatingIfNeeded: position + 1)
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
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try scanNumber()
    case UInt8(ascii: "t"):
      try expectLiteral("true")
    case UInt8(ascii: "f"):
      try expectLiteral("false")
    case UInt8(ascii: "n"):
      try expectLiteral("null")
    default:
      throw fail("unexpected \(describeByte()); expected a JSON value")
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
        let key = try scanString()
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
          throw fail(
            "unexpected \(describeByte()); expected ':' after the key \"\(text(of: key).abridgedInProblem)\""
          )
        }
        if key.escaped { unescaped.removeSubrange(key.start...) }
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

  /// Checks a string, keeping nothing of it.
  private mutating func skipString() throws(Failure) {
    let span = try scanString()
    if span.escaped { unescaped.removeSubrange(span.start...) }
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

  // MARK: - Numbers and strings

  /// Checks a number and moves past it.
  private mutating func scanNumber() throws(Failure) {
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
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Checks the string that starts here and moves past it: where its bytes are, with any
  /// escapes replaced in `unescaped`.
  private mutating func scanString() throws(Failure) -> Span {
    offset += 1
    let start = offset
    var ascii = true
    // Fast path: no escapes, eight bytes at a time up to the first that ends the string,
    // starts an escape or is a control character; the loop below takes it from there.
    if let base = bytes.baseAddress {
      while offset + 8 <= bytes.count {
        let word = UInt64(
          littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
        let stops =
          Self.zeroBytes(word ^ 0x2222_2222_2222_2222)
          | Self.zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
          | (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
        if stops != 0 {
          // Bytes below the first stop are ordinary; a later flag may be a borrow's.
          let before = stops.trailingZeroBitCount / 8
          if word & 0x8080_8080_8080_8080 & (1 << (before * 8) &- 1) != 0 { ascii = false }
          offset += before
          break
        }
        if word & 0x8080_8080_8080_8080 != 0 { ascii = false }
        offset += 8
      }
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        guard ascii || Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[start..<offset])) else {
          throw fail("the string holds bytes that are not valid UTF-8")
        }
        offset += 1
        return Span(start: start, count: offset - 1 - start, escaped: false)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        throw fail(
          "a control character (byte 0x\(String(byte, radix: 16))) must be escaped in a string")
      }
      if byte >= 0x80 { ascii = false }
      offset += 1
    }
    let replaced = unescaped.count
    unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        let valid = unescaped.withUnsafeBufferPointer {
          Self.isValidUTF8(UnsafeBufferPointer(rebasing: $0[replaced...]))
        }
        guard valid else {
          throw fail("the string holds bytes that are not valid UTF-8")
        }
        return Span(start: replaced, count: unescaped.count - replaced, escaped: true)
      case UInt8(ascii: "\\"):
        offset += 1
        try parseEscape()
      case 0..<0x20:
        throw fail(
          "a control character (byte 0x\(String(byte, radix: 16))) must be escaped in a string")
      default:
        unescaped.append(byte)
        offset += 1
      }
    }
    throw fail("the document ends inside a string")
  }

  /// The high bit of each byte of `word` that is zero, and perhaps of bytes above the
  /// first such byte; 0 when none is.
  @inline(__always)
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  /// Whether the bytes are valid UTF-8 (RFC 3629): no overlong forms, surrogates, or scalars
  /// above U+10FFFF.
  package static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    func continues(_ offsets: ClosedRange<Int>) -> Bool {
      guard index + offsets.upperBound < count else { return false }
      return offsets.allSatisfy { bytes[index + $0] & 0xC0 == 0x80 }
    }
    while index < count {
      let lead = bytes[index]
      switch lead {
      case 0..<0x80:
        index += 1
      case 0xC2..<0xE0:
        guard continues(1...1) else { return false }
        index += 2
      case 0xE0..<0xF0:
        guard continues(1...2) else { return false }
        let second = bytes[index + 1]
        if lead == 0xE0 && second < 0xA0 || lead == 0xED && second >= 0xA0 { return false }
        index += 3
      case 0xF0..<0xF5:
        guard continues(1...3) else { return false }
        let second = bytes[index + 1]
        if lead == 0xF0 && second < 0x90 || lead == 0xF4 && second >= 0x90 { return false }
        index += 4
      default:
        return false
      }
    }
    return true
  }

  private mutating func parseEscape() throws(Failure) {
    guard offset < bytes.count else { throw fail("the document ends inside a string") }
    let byte = bytes[offset]
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): unescaped.append(0x22)
    case UInt8(ascii: "\\"): unescaped.append(0x5C)
    case UInt8(ascii: "/"): unescaped.append(0x2F)
    case UInt8(ascii: "b"): unescaped.append(0x08)
    case UInt8(ascii: "f"): unescaped.append(0x0C)
    case UInt8(ascii: "n"): unescaped.append(0x0A)
    case UInt8(ascii: "r"): unescaped.append(0x0D)
    case UInt8(ascii: "t"): unescaped.append(0x09)
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
      unescaped.append(contentsOf: Array(String(Character(unicode)).utf8))
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
