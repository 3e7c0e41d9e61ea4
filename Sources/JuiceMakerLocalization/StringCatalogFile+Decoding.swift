import FoundationEssentials
import JuiceMakerCatalog

// MARK: - Decoding

extension StringCatalogFile {
  /// Decodes one catalog file.
  ///
  /// The file is parsed once, by the strict parser packs use, and compiled (see
  /// ``compile(_:duplicates:file:)``), which checks its structure; the catalog is then read
  /// from the compiled form, as from a cached one. A key written twice in one object does not
  /// stop the file from loading: the last copy is used, as `JSONDecoder` and Xcode use it, and
  /// the repetition is returned to be reported as a warning.
  ///
  /// With a selection, the values of the keys and languages it leaves out are checked as JSON
  /// but not built: such a key is left out, and such a language is left out of every key and
  /// named in ``unbuiltLanguages``, so its name still counts.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - file: The file's name, used in errors.
  ///   - selection: The keys and languages to build.
  ///   - sourceLanguages: The normalized source languages of the files loaded before, which
  ///     are built too, as is this file's own.
  /// - Returns: The decoded file and the keys written twice.
  /// - Throws: `LocalizationError.malformedJSON` with the line and column, or
  ///   `LocalizationError.invalidStructure` naming a field that is missing or has the wrong type
  ///   with its JSON path, line, and column: with several, the first in the order of the
  ///   model's fields, and of the members of keyed objects as written.
  /// - Complexity: O(*n*) in the size of the file.
  static func decode(
    _ data: [UInt8], file: String, selection: StringCatalog.Selection = .everything,
    sourceLanguages: Set<String> = []
  ) throws(LocalizationError) -> (file: StringCatalogFile, duplicates: [JSONParser.DuplicateKey]) {
    let parsed = try parse(
      data, file: file, selection: selection, sourceLanguages: sourceLanguages)
    let body = try compile(parsed.root, duplicates: parsed.duplicates, file: file)
    return try read(body, file: file, selection: selection, sourceLanguages: sourceLanguages)
  }

  /// The body of the compiled form of one catalog file: the file with every key and
  /// language, which serves every selection.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - file: The file's name, used in errors.
  /// - Throws: What ``decode(_:file:selection:sourceLanguages:)`` throws.
  static func compiledBody(_ data: [UInt8], file: String) throws(LocalizationError) -> [UInt8] {
    let parsed = try parse(data, file: file, selection: .everything, sourceLanguages: [])
    return try compile(parsed.root, duplicates: parsed.duplicates, file: file)
  }

  /// Reads a body ``compile(_:duplicates:file:)`` wrote, with a selection.
  ///
  /// - Throws: `LocalizationError.invalidStructure` should the body not read back whole,
  ///   which a body the compiler wrote always does.
  static func read(
    _ body: [UInt8], file: String, selection: StringCatalog.Selection,
    sourceLanguages: Set<String>
  ) throws(LocalizationError) -> (file: StringCatalogFile, duplicates: [JSONParser.DuplicateKey]) {
    let read = body.withUnsafeBytes { buffer in
      var reader = CompiledReader(buffer)
      let read = try? decode(
        compiled: &reader, selection: selection, sourceLanguages: sourceLanguages)
      return reader.isAtEnd ? read : nil
    }
    guard let read else {
      throw .invalidStructure(
        file: file, path: "(top level)", line: 1, column: 1,
        reason: "the catalog did not read back once compiled")
    }
    return read
  }

  /// Parses a file, skipping the values a selection leaves out.
  private static func parse(
    _ data: [UInt8], file: String, selection: StringCatalog.Selection,
    sourceLanguages: Set<String>
  ) throws(LocalizationError) -> (root: JSONNode, duplicates: [JSONParser.DuplicateKey]) {
    let parsed: (root: JSONNode, duplicates: [JSONParser.DuplicateKey])
    do throws(JSONParser.Failure) {
      if selection.isEverything {
        parsed = try JSONParser.parseKeepingLastDuplicate(data)
      } else {
        let languages = selection.languagesBuilt(
          sourceLanguages: sourceLanguages,
          fileSourceLanguage: selection.languages == nil ? nil : Self.sourceLanguage(of: data))
        // Every key names the same few languages: judge each spelling once, and the one
        // just judged without hashing it again.
        var keeps: [String: Bool] = [:]
        var last: (name: String, keeps: Bool)?
        parsed = try JSONParser.parseKeepingLastDuplicate(data, skippingAt: [2, 4]) {
          depth, name in
          switch depth {
          case 2:
            // A key of `strings`.
            return selection.includes(key: name) ? nil : .object(.empty)
          case 4:
            // A language of an entry's `localizations`.
            guard let languages else { return nil }
            let judged: Bool
            if let last, last.name == name {
              judged = last.keeps
            } else {
              judged =
                keeps[name] ?? StringCatalog.Selection.builds(language: name, in: languages)
              keeps[name] = judged
              last = (name, judged)
            }
            return judged ? nil : .object(.empty)
          default:
            return nil
          }
        }
      }
    } catch {
      throw .malformedJSON(
        file: file, reason: "line \(error.line), column \(error.column): \(error.reason)")
    }
    return parsed
  }

  /// Compiles a parsed catalog: checks each field as it goes, and writes the body a
  /// ``decode(compiled:selection:sourceLanguages:)`` reads. Each key, and each language of a
  /// key, is a part a reader may skip.
  ///
  /// - Throws: `LocalizationError.invalidStructure` for the first field, in the order of the
  ///   model's fields, that is missing or has the wrong type.
  private static func compile(
    _ root: JSONNode, duplicates: [JSONParser.DuplicateKey], file: String
  ) throws(LocalizationError) -> [UInt8] {
    var writer = CompiledWriter(capacity: root.documentSize)
    do throws(StructureFailure) {
      try writer.file(root, duplicates: duplicates)
    } catch {
      throw .invalidStructure(
        file: file, path: error.path, line: error.line, column: error.column,
        reason: error.reason)
    }
    return writer.bytes
  }

  /// The `sourceLanguage` of a file as written, read before the rest so that its values are
  /// built whatever the selection; `nil` when the file has no such string, which decoding
  /// then reports.
  private static func sourceLanguage(of data: [UInt8]) -> String? {
    if let first = JSONParser.leadingString(data, key: "sourceLanguage") { return first }
    // Written after `strings`: read the file once more, skipping them.
    let skimmed = try? JSONParser.parseKeepingLastDuplicate(data, skippingAt: [1]) { _, name in
      name == "strings" ? .null : nil
    }
    guard case .object(let members)? = skimmed?.root.value,
      case .string(let language)? = members.last(where: { $0.key == "sourceLanguage" })?.node.value
    else { return nil }
    return language
  }
}

/// A field of a parsed catalog that is missing or has the wrong type.
///
/// The reasons are worded as the pack decoder's, which reads with the same parser.
private struct StructureFailure: Error {
  /// What is wrong, such as `expected a string, found the number 3`.
  let reason: String
  /// The 1-based line and column of the value at fault, or of the object that lacks a field.
  let line: Int
  let column: Int
  /// The names from the failing field out to the root.
  private var reversedPath: [String]

  /// A failure of a value, before its path is known.
  init(_ reason: String, at node: JSONNode) {
    self.reason = reason
    (line, column) = node.position
    self.reversedPath = []
  }

  /// A required field that is absent from an object.
  static func missing(_ name: String, in object: JSONNode) -> StructureFailure {
    StructureFailure("missing required field \"\(name)\"", at: object).inside(name)
  }

  /// The same failure, one level further out: inside the member `name`.
  func inside(_ name: String) -> StructureFailure {
    var failure = self
    failure.reversedPath.append(name)
    return failure
  }

  /// The path, spelled like `strings["fruit.kiwi"].localizations.en`, or `(top level)`.
  ///
  /// A name that is an ASCII identifier follows a dot; any other name, such as `fruit.kiwi`,
  /// `ko-KR`, or `404`, is quoted in brackets.
  var path: String {
    var result = ""
    for name in reversedPath.reversed() {
      if let first = name.utf8.first, !first.isASCIIDigit,
        name.utf8.allSatisfy(\.isIdentifierCharacter)
      {
        result += result.isEmpty ? name : "." + name
      } else {
        result += "[\"\(name)\"]"
      }
    }
    return result.isEmpty ? "(top level)" : result
  }
}

extension UInt8 {
  fileprivate var isASCIIDigit: Bool {
    UInt8(ascii: "0") <= self && self <= UInt8(ascii: "9")
  }

  /// An ASCII letter, digit, or `_`.
  fileprivate var isIdentifierCharacter: Bool {
    switch self {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      true
    default:
      false
    }
  }
}

// MARK: - Compiling the parsed document

// Each model finds its known members in one pass over the object, then writes them in the
// order it declares them, as the synthesized `Decodable` conformances it had read them: the
// first field at fault is the first in that order. Unknown members are ignored.

/// The fields each model of a catalog reads, in the order it declares them.
private enum Fields {
  static let file: [StaticString] = ["sourceLanguage", "version", "strings"]
  static let entry: [StaticString] = [
    "comment", "extractionState", "shouldTranslate", "localizations",
  ]
  static let localization: [StaticString] = [
    "stringUnit", "stringSet", "variations", "substitutions",
  ]
  static let stringUnit: [StaticString] = ["state", "value"]
  static let stringSet: [StaticString] = ["state", "values"]
  static let variations: [StaticString] = ["plural", "device"]
  static let variant: [StaticString] = ["stringUnit", "variations"]
  static let substitution: [StaticString] = ["argNum", "formatSpecifier", "variations"]
}

extension CompiledWriter {
  fileprivate mutating func file(
    _ node: JSONNode, duplicates: [JSONParser.DuplicateKey]
  ) throws(StructureFailure) {
    var sourceLanguage, version, strings: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.file) {
      case 0: sourceLanguage = fields.node(at: position)
      case 1: version = fields.node(at: position)
      case 2: strings = fields.node(at: position)
      default: break
      }
    }
    try required(sourceLanguage, "sourceLanguage", in: node) {
      writer, node throws(StructureFailure) in
      try writer.string(node)
    }
    try optionalString(version, "version")
    integer(duplicates.count)
    for duplicate in duplicates {
      string(duplicate.key)
      integer(duplicate.line)
      integer(duplicate.column)
      integer(duplicate.droppedLine)
    }
    try members(strings, "strings", asParts: true) { writer, node throws(StructureFailure) in
      try writer.entry(node)
    }
  }

  private mutating func entry(_ node: JSONNode) throws(StructureFailure) {
    var comment, extractionState, shouldTranslate, localizations: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.entry) {
      case 0: comment = fields.node(at: position)
      case 1: extractionState = fields.node(at: position)
      case 2: shouldTranslate = fields.node(at: position)
      case 3: localizations = fields.node(at: position)
      default: break
      }
    }
    try optionalString(comment, "comment")
    try optionalString(extractionState, "extractionState")
    var translate = 0
    try optional(shouldTranslate, "shouldTranslate") { _, node throws(StructureFailure) in
      translate = try Bool(node) ? 2 : 1
    }
    integer(translate)
    try members(localizations, "localizations", asParts: true) {
      writer, node throws(StructureFailure) in
      try writer.localization(node)
    }
  }

  private mutating func localization(_ node: JSONNode) throws(StructureFailure) {
    var stringUnit, stringSet, variations, substitutions: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.localization) {
      case 0: stringUnit = fields.node(at: position)
      case 1: stringSet = fields.node(at: position)
      case 2: variations = fields.node(at: position)
      case 3: substitutions = fields.node(at: position)
      default: break
      }
    }
    try flagged(stringUnit, "stringUnit") { writer, node throws(StructureFailure) in
      try writer.stringUnit(node)
    }
    try flagged(stringSet, "stringSet") { writer, node throws(StructureFailure) in
      try writer.stringSet(node)
    }
    try flagged(variations, "variations") { writer, node throws(StructureFailure) in
      try writer.variations(node)
    }
    try members(substitutions, "substitutions", asParts: false) {
      writer, node throws(StructureFailure) in
      try writer.substitution(node)
    }
  }

  private mutating func stringUnit(_ node: JSONNode) throws(StructureFailure) {
    var state, value: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.stringUnit) {
      case 0: state = fields.node(at: position)
      case 1: value = fields.node(at: position)
      default: break
      }
    }
    try optionalString(state, "state")
    try required(value, "value", in: node) { writer, node throws(StructureFailure) in
      try writer.string(node)
    }
  }

  private mutating func stringSet(_ node: JSONNode) throws(StructureFailure) {
    var state, values: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.stringSet) {
      case 0: state = fields.node(at: position)
      case 1: values = fields.node(at: position)
      default: break
      }
    }
    try optionalString(state, "state")
    try required(values, "values", in: node) { writer, node throws(StructureFailure) in
      let elements = try node.array()
      writer.integer(elements.count)
      for (index, element) in elements.enumerated() {
        do throws(StructureFailure) {
          try writer.string(element)
        } catch {
          throw error.inside(String(index))
        }
      }
    }
  }

  private mutating func variations(_ node: JSONNode) throws(StructureFailure) {
    var plural, device: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.variations) {
      case 0: plural = fields.node(at: position)
      case 1: device = fields.node(at: position)
      default: break
      }
    }
    for (branches, name) in [(plural, "plural"), (device, "device")] {
      try members(branches, name, asParts: false) { writer, node throws(StructureFailure) in
        try writer.variant(node)
      }
    }
  }

  private mutating func variant(_ node: JSONNode) throws(StructureFailure) {
    var stringUnit, variations: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.variant) {
      case 0: stringUnit = fields.node(at: position)
      case 1: variations = fields.node(at: position)
      default: break
      }
    }
    try flagged(stringUnit, "stringUnit") { writer, node throws(StructureFailure) in
      try writer.stringUnit(node)
    }
    try flagged(variations, "variations") { writer, node throws(StructureFailure) in
      try writer.variations(node)
    }
  }

  private mutating func substitution(_ node: JSONNode) throws(StructureFailure) {
    var argNum, formatSpecifier, variations: JSONNode?
    let fields = try node.object()
    for position in fields.indices {
      switch fields.key(at: position, in: Fields.substitution) {
      case 0: argNum = fields.node(at: position)
      case 1: formatSpecifier = fields.node(at: position)
      case 2: variations = fields.node(at: position)
      default: break
      }
    }
    try flagged(argNum, "argNum") { writer, node throws(StructureFailure) in
      writer.integer(try Int(node))
    }
    try optionalString(formatSpecifier, "formatSpecifier")
    try flagged(variations, "variations") { writer, node throws(StructureFailure) in
      try writer.variations(node)
    }
  }

  // MARK: Fields

  /// A field that may be absent or `null`: `body` writes it when it is there.
  ///
  /// - Throws: What `body` throws, inside the field.
  private mutating func optional(
    _ node: JSONNode?, _ name: String,
    _ body: (inout CompiledWriter, JSONNode) throws(StructureFailure) -> Void
  ) throws(StructureFailure) {
    guard let node, !node.isNull else { return }
    do {
      try body(&self, node)
    } catch {
      throw error.inside(name)
    }
  }

  /// A field that may be absent or `null`, as a flag and, when it is there, what `body`
  /// writes.
  private mutating func flagged(
    _ node: JSONNode?, _ name: String,
    _ body: (inout CompiledWriter, JSONNode) throws(StructureFailure) -> Void
  ) throws(StructureFailure) {
    let present = node.map { !$0.isNull } ?? false
    flag(present)
    if present { try optional(node, name, body) }
  }

  /// A string value, written from the document's bytes.
  ///
  /// - Throws: `StructureFailure` when the value is not a string.
  private mutating func string(_ node: JSONNode) throws(StructureFailure) {
    guard node.withStringUTF8({ string(utf8: $0) }) != nil else {
      throw node.mismatch("a string")
    }
  }

  /// A string field that may be absent or `null`.
  private mutating func optionalString(_ node: JSONNode?, _ name: String)
    throws(StructureFailure)
  {
    try flagged(node, name) { writer, node throws(StructureFailure) in
      try writer.string(node)
    }
  }

  /// A field that must be present.
  ///
  /// - Parameters:
  ///   - object: The object the field belongs to, which a failure points at when it is
  ///     absent.
  /// - Throws: `StructureFailure` when the field is absent, or inside the field.
  private mutating func required(
    _ node: JSONNode?, _ name: String, in object: JSONNode,
    _ body: (inout CompiledWriter, JSONNode) throws(StructureFailure) -> Void
  ) throws(StructureFailure) {
    guard let node else { throw .missing(name, in: object) }
    do {
      try body(&self, node)
    } catch {
      throw error.inside(name)
    }
  }

  /// A field that may be absent or `null` and is otherwise an object whose every member
  /// holds the same kind of value, such as `strings`: a flag, the number of members, then
  /// each member's name and what `body` writes of its value, in a part of its own when
  /// `asParts`.
  private mutating func members(
    _ node: JSONNode?, _ name: String, asParts: Bool,
    _ body: (inout CompiledWriter, JSONNode) throws(StructureFailure) -> Void
  ) throws(StructureFailure) {
    let present = node.map { !$0.isNull } ?? false
    flag(present)
    guard let node, present else {
      integer(0)
      return
    }
    do throws(StructureFailure) {
      let members = try node.object()
      integer(members.count)
      for position in members.indices {
        members.withKeyUTF8(at: position) { string(utf8: $0) }
        let value = members.node(at: position)
        do throws(StructureFailure) {
          if asParts {
            try part { writer throws(StructureFailure) in try body(&writer, value) }
          } else {
            try body(&self, value)
          }
        } catch {
          throw error.inside(members[position].key)
        }
      }
    } catch {
      throw error.inside(name)
    }
  }
}

// MARK: - Typed values

extension JSONNode {
  /// The members of an object.
  fileprivate func object() throws(StructureFailure) -> JSONObject {
    guard let members = objectMembers else { throw mismatch("an object") }
    return members
  }

  /// The elements of an array.
  fileprivate func array() throws(StructureFailure) -> JSONArray {
    guard let elements = arrayElements else { throw mismatch("an array") }
    return elements
  }

  /// The failure of a node that is not of the expected type, such as
  /// `expected a string, found the number 3`.
  fileprivate func mismatch(_ expected: String) -> StructureFailure {
    StructureFailure("expected \(expected), found \(value.kindName.abridgedInProblem)", at: self)
  }
}

extension String {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    guard case .string(let text) = node.value else { throw node.mismatch("a string") }
    self = text
  }
}

extension Bool {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    guard case .bool(let flag) = node.value else { throw node.mismatch("true or false") }
    self = flag
  }
}

extension Int {
  /// Reads a whole number written as one, such as `2`; `2.0` and `2e0` are refused, as in packs.
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    guard case .number(let text) = node.value else { throw node.mismatch("a whole number") }
    guard let integer = Int(text) else {
      let isWhole = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
      let reason =
        !isWhole
        ? "\(text.abridgedInProblem) is not a whole number"
        : text.hasPrefix("-")
          ? "\(text.abridgedInProblem) is too small" : "\(text.abridgedInProblem) is too large"
      throw StructureFailure(reason, at: node)
    }
    self = integer
  }
}
