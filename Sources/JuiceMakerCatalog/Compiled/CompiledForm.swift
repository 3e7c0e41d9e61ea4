/// The compiled form of a data file: what a pack or a string catalog decodes to, written so
/// that it is read back without parsing.
///
/// A compiled file is a header, then a body:
///
/// | Part | Bytes |
/// | --- | --- |
/// | Magic | `JMC` and the kind: `P` for a pack, `S` for a string catalog |
/// | Format version | a number (below) |
/// | Source | the ``ContentHash`` of the file it was compiled from, as 16 hex digits, and its size |
/// | Body | its XXH64 as 16 hex digits, its length, then the body |
///
/// Numbers are written six bits to a byte, low bits first, with `0x40` set on every byte but
/// the last; strings as their UTF-8 length and bytes. So every byte of a compiled file is
/// ASCII or part of a string's UTF-8, and the build plugin can compile the built-in data
/// into a Swift string literal that is read in place. Every read is checked against the
/// end of its part: a damaged or hostile file is ``Damaged``, never a crash.
package enum CompiledForm {
  /// The version of the layout of every kind. A compiled file of another version is not
  /// read, so changing the layout of either kind means raising it.
  package static let formatVersion = 1

  /// What a compiled file holds.
  package enum Kind: UInt8, Sendable {
    case pack = 0x50
    case strings = 0x53

    /// The file name extension of the cache's files of this kind.
    var fileExtension: String { self == .pack ? "pack" : "strings" }
  }

  /// A compiled file or part of one that cannot be read: it is rebuilt, never trusted.
  package struct Damaged: Error, Sendable {
    package init() {}
  }

  /// A compiled file's bytes: ``header(kind:source:body:)``, then `body`.
  ///
  /// - Parameters:
  ///   - kind: What the body is.
  ///   - source: The content hash and size of the file compiled.
  ///   - body: The compiled contents.
  package static func file(kind: Kind, source: (hash: UInt64, size: Int), body: [UInt8])
    -> [UInt8]
  {
    header(kind: kind, source: source, body: body) + body
  }

  /// What a compiled file holds before its body: the kind, the format version, the source's
  /// hash and size, and the body's hash and size. The cache writes it beside the body, which
  /// it does not copy.
  ///
  /// - Parameters:
  ///   - kind: What the body is.
  ///   - source: The content hash and size of the file compiled.
  ///   - body: The compiled contents.
  package static func header(kind: Kind, source: (hash: UInt64, size: Int), body: [UInt8])
    -> [UInt8]
  {
    var writer = CompiledWriter(capacity: 64)
    writer.raw(Array("JMC".utf8) + [kind.rawValue])
    writer.integer(formatVersion)
    writer.raw(hex(source.hash))
    writer.integer(source.size)
    body.withUnsafeBytes { writer.raw(hex(ContentHash.xxh64($0))) }
    writer.integer(body.count)
    return writer.bytes
  }

  /// The body of a compiled file, after checking its header against what it should be and
  /// its body against its hash.
  ///
  /// - Parameters:
  ///   - bytes: The whole file.
  ///   - kind: The kind it must be.
  ///   - source: The content hash and size of the file it must have been compiled from;
  ///     `nil` not to check them, for data compiled into the program.
  /// - Returns: A reader over the body.
  /// - Throws: `Damaged` when any part differs.
  package static func body(
    of bytes: UnsafeRawBufferPointer, kind: Kind, source: (hash: UInt64, size: Int)?
  ) throws(Damaged) -> CompiledReader {
    var reader = CompiledReader(bytes)
    guard try reader.raw(4).elementsEqual(Array("JMC".utf8) + [kind.rawValue]),
      try reader.integer() == formatVersion
    else { throw Damaged() }
    let sourceHash = try reader.raw(16)
    let sourceSize = try reader.integer()
    if let source {
      guard sourceHash.elementsEqual(hex(source.hash)), sourceSize == source.size else {
        throw Damaged()
      }
    }
    let bodyHash = try reader.raw(16)
    let body = try reader.raw(try reader.integer())
    guard reader.isAtEnd, bodyHash.elementsEqual(hex(ContentHash.xxh64(body))) else {
      throw Damaged()
    }
    return CompiledReader(body)
  }

  /// Reads a compiled form compiled into the program, in place.
  ///
  /// - Returns: What `decode` read, or `nil` should the form not read.
  package static func read<Value>(
    _ form: StaticString, kind: Kind,
    decode: (inout CompiledReader) throws(Damaged) -> Value
  ) -> Value? {
    guard form.hasPointerRepresentation else { return nil }
    return form.withUTF8Buffer { buffer in
      do throws(Damaged) {
        var body = try CompiledForm.body(
          of: UnsafeRawBufferPointer(buffer), kind: kind, source: nil)
        let value = try decode(&body)
        return body.isAtEnd ? value : nil
      } catch {
        return nil
      }
    }
  }

  /// The compiled file of a pack, for the build plugin; `nil` when the pack has problems.
  ///
  /// - Parameters:
  ///   - bytes: The pack's JSON.
  ///   - name: Its path.
  package static func compilePack(_ bytes: [UInt8], name: String) -> [UInt8]? {
    let (pack, problems) = PackDecoder.decode(bytes, file: name)
    guard problems.isEmpty else { return nil }
    return file(
      kind: .pack, source: (ContentHash.of(bytes), bytes.count), body: pack.compiled())
  }

  /// A hash as 16 lower-case hex digits.
  package static func hex(_ value: UInt64) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    return (0..<16).map { digits[Int((value >> (60 - 4 * UInt64($0))) & 0xF)] }
  }
}

/// Writes the body of a compiled file.
package struct CompiledWriter {
  /// What is written so far.
  package private(set) var bytes: [UInt8] = []

  /// A writer with room for `capacity` bytes before it grows.
  package init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// A whole number, six bits to a byte; a negative one zig-zagged.
  package mutating func integer(_ value: Int) {
    var rest = UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1))))
    while rest >= 0x40 {
      bytes.append(UInt8(rest & 0x3F) | 0x40)
      rest >>= 6
    }
    bytes.append(UInt8(rest))
  }

  /// A flag.
  package mutating func flag(_ value: Bool) {
    bytes.append(value ? 1 : 0)
  }

  /// A string: its UTF-8 length, then its UTF-8.
  package mutating func string(_ value: String) {
    integer(value.utf8.count)
    bytes.append(contentsOf: value.utf8)
  }

  /// A string given as its UTF-8: its length, then the bytes.
  package mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) {
    integer(value.count)
    bytes.append(contentsOf: value)
  }

  /// A string that may be absent.
  package mutating func optional(_ value: String?) {
    flag(value != nil)
    if let value { string(value) }
  }

  /// Bytes as they are.
  package mutating func raw(_ value: [UInt8]) {
    bytes.append(contentsOf: value)
  }

  /// A part a reader may skip: its length, then what `body` writes.
  ///
  /// The length is written in three bytes, in place once the part is written, so a part is
  /// not copied; one of 256 KiB or more has its length written in as many bytes as it takes.
  package mutating func part<Failure: Error>(
    _ body: (inout CompiledWriter) throws(Failure) -> Void
  ) throws(Failure) {
    let start = bytes.count
    for _ in 0..<3 { bytes.append(0) }
    try body(&self)
    let length = bytes.count - start - 3
    // The number `integer(_:)` writes for the length: zig-zagged, so twice it.
    let encoded = UInt64(length) << 1
    if encoded < 1 << 18 {
      bytes[start] = UInt8(encoded & 0x3F) | 0x40
      bytes[start + 1] = UInt8((encoded >> 6) & 0x3F) | 0x40
      bytes[start + 2] = UInt8(encoded >> 12)
    } else {
      var prefix = CompiledWriter()
      prefix.integer(length)
      bytes.replaceSubrange(start..<start + 3, with: prefix.bytes)
    }
  }
}

/// Reads the body of a compiled file, checking every read against the end of its bytes.
///
/// It reads bytes it does not own, so it is used only while they are mapped: inside the
/// call that hands them over.
package struct CompiledReader {
  private let bytes: UnsafeRawBufferPointer
  private var offset = 0

  package init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// Whether every byte was read.
  package var isAtEnd: Bool { offset == bytes.count }

  /// How many bytes are left: a bound on how many values a count may announce, each taking
  /// a byte or more.
  package var remaining: Int { bytes.count - offset }

  /// The next `count` bytes.
  package mutating func raw(_ count: Int) throws(CompiledForm.Damaged) -> UnsafeRawBufferPointer {
    guard count >= 0, count <= bytes.count - offset else { throw CompiledForm.Damaged() }
    defer { offset += count }
    return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
  }

  /// A whole number written by ``CompiledWriter/integer(_:)``.
  package mutating func integer() throws(CompiledForm.Damaged) -> Int {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < bytes.count, shift < 64 else { throw CompiledForm.Damaged() }
      let byte = bytes[offset]
      offset += 1
      guard byte < 0x80 else { throw CompiledForm.Damaged() }
      let payload = UInt64(byte & 0x3F)
      // The bits that would fall off the top.
      guard shift == 0 || payload >> (64 - shift) == 0 else { throw CompiledForm.Damaged() }
      value |= payload << shift
      if byte & 0x40 == 0 { break }
      shift += 6
    }
    let signed = Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
    return signed
  }

  /// A number that counts something: not negative, and at most `limit`, by default the
  /// bytes left, so that a hostile count cannot reserve more memory than the file holds.
  package mutating func count(atMost limit: Int? = nil) throws(CompiledForm.Damaged) -> Int {
    let value = try integer()
    guard value >= 0, value <= limit ?? remaining else { throw CompiledForm.Damaged() }
    return value
  }

  /// A flag.
  package mutating func flag() throws(CompiledForm.Damaged) -> Bool {
    let byte = try raw(1)[0]
    guard byte <= 1 else { throw CompiledForm.Damaged() }
    return byte == 1
  }

  /// The UTF-8 bytes of a string, not yet checked.
  package mutating func stringBytes() throws(CompiledForm.Damaged) -> UnsafeRawBufferPointer {
    try raw(try count())
  }

  /// A string; bytes that are not UTF-8 are damage.
  package mutating func string() throws(CompiledForm.Damaged) -> String {
    try string(length: try count())
  }

  /// The next `length` bytes as a string; bytes that are not UTF-8 are damage.
  package mutating func string(length: Int) throws(CompiledForm.Damaged) -> String {
    let bytes = try raw(length).assumingMemoryBound(to: UInt8.self)
    guard JSONParser.isValidUTF8(bytes) else { throw CompiledForm.Damaged() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A string that may be absent.
  package mutating func optional() throws(CompiledForm.Damaged) -> String? {
    try flag() ? try string() : nil
  }

  /// A part written by ``CompiledWriter/part(_:)``, to read or to skip.
  package mutating func part() throws(CompiledForm.Damaged) -> CompiledReader {
    CompiledReader(try raw(try count()))
  }
}
