import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A JSON document parsed by `JSONParser`: its bytes and a flat list of its values.
///
/// A value is one fixed-size token in one array, and an object's or array's children are a
/// run of token positions in another, so parsing a document allocates a few growing arrays
/// rather than an array per object and a string per key. Strings and numbers stay bytes of
/// the document until a reader asks for one: ``JSONNode/value`` builds the `String` then.
///
/// It is `Sendable` as it is never changed once parsed: the memory its pointers own is
/// written only by the parser, before the document is made, and freed when it goes.
package final class JSONDocument: @unchecked Sendable {
  /// One value, or one object key, in the order the document writes them: twelve bytes,
  /// for a document has a token every few bytes and each one is written, then read again.
  @usableFromInline
  struct Token: Sendable, BitwiseCopyable {
    @usableFromInline
    enum Kind: UInt8, Sendable, BitwiseCopyable {
      case object, array, string, number, `true`, `false`, null
      /// A value the parser skipped: `first` is its stand-in's position in `standIns`.
      case standIn
    }

    /// The documents whose offsets fit in a token are smaller than this.
    static let documentLimit = 1 << 28
    @usableFromInline static let escapedBit: UInt32 = 1 << 28
    @usableFromInline static let offsetMask: UInt32 = 1 << 28 - 1

    /// The kind in the top three bits, whether a string is escaped in the next, and the
    /// offset of the value's first byte in the document in the rest.
    @usableFromInline var head: UInt32
    /// A string's or number's first byte; an object's or array's first child in `children`.
    @usableFromInline var first: UInt32
    /// A string's or number's length in bytes; an object's or array's number of children.
    @usableFromInline var count: UInt32

    @usableFromInline
    init(kind: Kind, offset: Int, first: UInt32, count: UInt32) {
      head = UInt32(kind.rawValue) << 29 | UInt32(truncatingIfNeeded: offset) & Self.offsetMask
      self.first = first
      self.count = count
    }

    @inlinable var kind: Kind {
      // Every three-bit value is a kind.
      Kind(rawValue: UInt8(truncatingIfNeeded: head >> 29)) ?? .standIn
    }

    /// For a string: whether its bytes are in `unescaped` rather than the document.
    @inlinable var escaped: Bool {
      get { head & Self.escapedBit != 0 }
      set { head = newValue ? head | Self.escapedBit : head & ~Self.escapedBit }
    }

    /// Where the value starts in the document, in bytes.
    @inlinable var offset: Int { Int(head & Self.offsetMask) }
  }

  /// The document as given.
  @usableFromInline let bytes: [UInt8]
  /// Every value and object key, the root first; a member's value follows its key. Held in
  /// memory of the document's own, read without reference counting.
  @usableFromInline let tokens: UnsafeMutablePointer<Token>
  /// The children of every object (their keys' tokens) and array (their elements' tokens),
  /// each container's in one run.
  @usableFromInline let children: UnsafeMutablePointer<UInt32>
  /// The bytes of the strings that hold escapes, with the escapes replaced.
  @usableFromInline let unescaped: [UInt8]
  /// The values that stand in for skipped ones.
  @usableFromInline let standIns: [JSONValue]

  /// A document that takes over the memory of `tokens` and `children`.
  init(
    bytes: [UInt8], tokens: PlainBuffer<Token>, children: PlainBuffer<UInt32>,
    unescaped: [UInt8], standIns: [JSONValue]
  ) {
    self.bytes = bytes
    self.tokens = tokens.base
    self.children = children.base
    self.unescaped = unescaped
    self.standIns = standIns
  }

  deinit {
    tokens.deallocate()
    children.deallocate()
  }

  /// A document with no values, behind the empty object and array.
  @usableFromInline static let empty = JSONDocument(
    bytes: [], tokens: PlainBuffer(capacity: 1), children: PlainBuffer(capacity: 1),
    unescaped: [], standIns: [])

  /// The value of the token at `index`.
  @inlinable
  func value(at index: Int) -> JSONValue {
    let token = tokens[index]
    switch token.kind {
    case .object: return .object(JSONObject(document: self, token: token))
    case .array: return .array(JSONArray(document: self, token: token))
    case .string: return .string(text(of: token))
    case .number: return .number(text(of: token))
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .null: return .null
    case .standIn: return standIns[Int(token.first)]
    }
  }

  /// The text of a string or number token, which the parser checked to be valid UTF-8.
  @inlinable
  func text(of token: Token) -> String {
    withUTF8(of: token) { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the UTF-8 of a string or number token, escapes replaced.
  @inlinable
  func withUTF8<Result>(
    of token: Token, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    let range = Int(token.first)..<Int(token.first) + Int(token.count)
    if token.escaped {
      return try unescaped.withUnsafeBufferPointer {
        try body(UnsafeBufferPointer(rebasing: $0[range]))
      }
    }
    return try bytes.withUnsafeBufferPointer {
      try body(UnsafeBufferPointer(rebasing: $0[range]))
    }
  }
}

/// A JSON value parsed by `JSONParser`, with the place it was written.
///
/// Packs are read with this strict parser rather than `JSONDecoder` so that every
/// problem can name its line, column and JSON path, duplicate keys are caught, and
/// numbers keep their written form until the pack decoder judges them.
package struct JSONNode: Sendable {
  @usableFromInline let document: JSONDocument
  @usableFromInline let index: Int

  @inlinable
  init(document: JSONDocument, index: Int) {
    self.document = document
    self.index = index
  }

  /// The value.
  @inlinable package var value: JSONValue { document.value(at: index) }
  /// The 1-based line and column (in bytes) where the value starts, found by reading the
  /// document: for a problem's message.
  package var position: (line: Int, column: Int) {
    document.bytes.withUnsafeBufferPointer {
      LineTable($0).position(of: document.tokens[index].offset)
    }
  }

  /// The members when the value is an object, read without building the value for any
  /// other kind; `nil` when it is not an object.
  @inlinable package var objectMembers: JSONObject? {
    let token = document.tokens[index]
    if token.kind == .object { return JSONObject(document: document, token: token) }
    guard token.kind == .standIn, case .object(let members) = value else { return nil }
    return members
  }

  /// The elements when the value is an array; see ``objectMembers``.
  @inlinable package var arrayElements: JSONArray? {
    let token = document.tokens[index]
    if token.kind == .array { return JSONArray(document: document, token: token) }
    guard token.kind == .standIn, case .array(let elements) = value else { return nil }
    return elements
  }

  /// Calls `body` with the UTF-8 of the value when it is a string, without building the
  /// `String`; `nil` when it is not a string.
  package func withStringUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
    let token = document.tokens[index]
    guard token.kind == .string else {
      if token.kind == .standIn, case .string(var text) = document.standIns[Int(token.first)] {
        return text.withUTF8(body)
      }
      return nil
    }
    return document.withUTF8(of: token, body)
  }

  /// The size in bytes of the document the value is in.
  package var documentSize: Int { document.bytes.count }

  /// Whether the value is `null`, told without building it.
  @inlinable package var isNull: Bool {
    let token = document.tokens[index]
    switch token.kind {
    case .null: return true
    case .standIn:
      if case .null = document.standIns[Int(token.first)] { return true }
      return false
    default: return false
    }
  }
}

/// The kinds of JSON value.
package enum JSONValue: Sendable {
  /// An object, its members in written order.
  case object(JSONObject)
  /// An array.
  case array(JSONArray)
  /// A string.
  case string(String)
  /// A number as written, such as `-0`, `1.5` or `1e400`.
  case number(String)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// The name of the kind, as problems report it.
  package var kindName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number(let text): "the number \(text)"
    case .bool(let value): "\(value)"
    case .null: "null"
    }
  }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable {
  /// The key.
  package let key: String
  /// The value.
  package let node: JSONNode

  @inlinable
  init(key: String, node: JSONNode) {
    self.key = key
    self.node = node
  }
}

/// A run of an object's members or an array's elements, indexed from 0.
package protocol JSONRun: RandomAccessCollection where Index == Int, Indices == Range<Int> {
  /// How many there are.
  var runLength: Int { get }
}

extension JSONRun {
  @inlinable package var startIndex: Int { 0 }
  @inlinable package var endIndex: Int { runLength }
  @inlinable package var count: Int { runLength }
  @inlinable package var indices: Range<Int> { 0..<runLength }
  @inlinable package func index(after position: Int) -> Int { position + 1 }
  @inlinable package func index(before position: Int) -> Int { position - 1 }
}

/// The members of a JSON object, in written order; each key is built when its member is read.
package struct JSONObject: JSONRun, Sendable {
  @usableFromInline let document: JSONDocument
  /// Where the members' key tokens are in the document's `children`.
  @usableFromInline let first: Int
  @usableFromInline package let runLength: Int
  /// The members' key tokens, when they are not the document's run: some members kept.
  @usableFromInline let kept: [UInt32]?

  @inlinable
  init(document: JSONDocument, token: JSONDocument.Token) {
    self.document = document
    self.first = Int(token.first)
    self.runLength = Int(token.count)
    self.kept = nil
  }

  @usableFromInline
  init(document: JSONDocument, kept: [UInt32]) {
    self.document = document
    self.first = 0
    self.runLength = kept.count
    self.kept = kept
  }

  /// An object without members.
  package static let empty = JSONObject(document: .empty, kept: [])

  /// The members in order.
  package struct Iterator: IteratorProtocol {
    @usableFromInline let object: JSONObject
    @usableFromInline var position = 0

    @inlinable
    init(object: JSONObject) {
      self.object = object
    }

    @inlinable
    package mutating func next() -> JSONMember? {
      guard position < object.runLength else { return nil }
      defer { position += 1 }
      return object[position]
    }
  }

  @inlinable package func makeIterator() -> Iterator { Iterator(object: self) }

  /// The token of the key of the member at `position`.
  @inlinable
  func keyToken(at position: Int) -> Int {
    if let kept { return Int(kept[position]) }
    return Int(document.children[first + position])
  }

  @inlinable
  package subscript(position: Int) -> JSONMember {
    let key = keyToken(at: position)
    return JSONMember(
      key: document.text(of: document.tokens[key]),
      node: JSONNode(document: document, index: key + 1))
  }

  /// Calls `body` with the UTF-8 of the key of the member at `position`, without building
  /// the `String`.
  package func withKeyUTF8<Result>(
    at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    document.withUTF8(of: document.tokens[keyToken(at: position)], body)
  }

  /// The value of the member at `position`, without building its key.
  @inlinable
  package func node(at position: Int) -> JSONNode {
    JSONNode(document: document, index: keyToken(at: position) + 1)
  }

  /// Where the key of the member at `position` is among `names`, compared as UTF-8 without
  /// building the key; `nil` when it is none of them.
  package func key(at position: Int, in names: [StaticString]) -> Int? {
    withKeyUTF8(at: position) { key in
      guard let keyBase = key.baseAddress else { return nil }
      for (index, name) in names.enumerated() where name.utf8CodeUnitCount == key.count {
        if Bytes.equal(name.utf8Start, keyBase, count: key.count) { return index }
      }
      return nil
    }
  }

  /// The members at the positions `isIncluded` keeps, in the same order.
  package func keeping(_ isIncluded: (_ position: Int) -> Bool) -> JSONObject {
    var kept: [UInt32] = []
    for position in indices where isIncluded(position) {
      kept.append(UInt32(truncatingIfNeeded: keyToken(at: position)))
    }
    return JSONObject(document: document, kept: kept)
  }

}

/// The elements of a JSON array.
package struct JSONArray: JSONRun, Sendable {
  @usableFromInline let document: JSONDocument
  /// Where the elements' tokens are in the document's `children`.
  @usableFromInline let first: Int
  @usableFromInline package let runLength: Int

  @inlinable
  init(document: JSONDocument, token: JSONDocument.Token) {
    self.document = document
    self.first = Int(token.first)
    self.runLength = Int(token.count)
  }

  @inlinable
  package subscript(position: Int) -> JSONNode {
    JSONNode(document: document, index: Int(document.children[first + position]))
  }
}

/// A growing run of plain values in memory of its own, which the parser fills and a
/// ``JSONDocument`` then owns: reading it costs no reference counting.
@usableFromInline
struct PlainBuffer<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  /// Makes room for `capacity` values in all, without copying again until then.
  mutating func reserve(_ capacity: Int) {
    if capacity > self.capacity { grow(to: capacity) }
  }

  mutating func append(_ element: Element) {
    if count == capacity { grow(to: capacity * 2) }
    (base + count).initialize(to: element)
    count += 1
  }

  mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
    if count + elements.count > capacity {
      grow(to: Swift.max(capacity * 2, count + elements.count))
    }
    if let source = elements.baseAddress {
      (base + count).initialize(from: source, count: elements.count)
    }
    count += elements.count
  }

  /// Forgets the last `k` values.
  mutating func removeLast(_ k: Int) {
    count -= k
  }

  subscript(position: Int) -> Element {
    get { base[position] }
    nonmutating set { base[position] = newValue }
  }

  /// Frees the memory, when no document took it over.
  func deallocate() {
    base.deallocate()
  }

  private mutating func grow(to newCapacity: Int) {
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }
}

/// Comparisons of bytes in memory.
enum Bytes {
  /// Whether `count` bytes at `first` and `second` are the same: a loop for the few bytes
  /// of a key, where calling `memcmp` costs more than comparing.
  @inline(__always)
  static func equal(
    _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int
  ) -> Bool {
    guard count <= 16 else { return memcmp(first, second, count) == 0 }
    for offset in 0..<count where first[offset] != second[offset] { return false }
    return true
  }
}
