import Foundation
import JuiceMakerCatalog

// MARK: - Decoding

extension StringCatalogFile {
  /// Decodes one catalog file.
  ///
  /// The file is parsed once, by the strict parser packs use, and the catalog is then read
  /// from the parsed tree. A key written twice in one object does not stop the file from
  /// loading: the last copy is used, as `JSONDecoder` and Xcode use it, and the repetition is
  /// returned to be reported as a warning.
  ///
  /// With a selection, the values of the keys and languages it leaves out are checked as JSON
  /// but not built: such a key is decoded as an entry without localizations, such a language
  /// as a localization without a value, so its name still counts.
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
    do throws(StructureFailure) {
      return (try StringCatalogFile(parsed.root), parsed.duplicates)
    } catch {
      throw .invalidStructure(
        file: file, path: error.path, line: error.line, column: error.column,
        reason: error.reason)
    }
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
    self.line = node.line
    self.column = node.column
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

// MARK: - Reading the parsed tree

// Each model finds its known members in one pass over the object, then reads them in the order
// it declares them, as the synthesized `Decodable` conformances it had did. Unknown members are
// ignored.

extension StringCatalogFile: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var sourceLanguage, version, strings: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "sourceLanguage": sourceLanguage = member.node
      case "version": version = member.node
      case "strings": strings = member.node
      default: break
      }
    }
    self.sourceLanguage = try sourceLanguage.readRequired("sourceLanguage", in: node)
    self.version = try version.read("version")
    self.strings = try strings.readMembers("strings")
  }
}

extension StringCatalogFile.Entry: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var comment, extractionState, shouldTranslate, localizations: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "comment": comment = member.node
      case "extractionState": extractionState = member.node
      case "shouldTranslate": shouldTranslate = member.node
      case "localizations": localizations = member.node
      default: break
      }
    }
    self.comment = try comment.read("comment")
    self.extractionState = try extractionState.read("extractionState")
    self.shouldTranslate = try shouldTranslate.read("shouldTranslate")
    self.localizations = try localizations.readMembers("localizations")
  }
}

extension StringCatalogFile.Localization: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var stringUnit, stringSet, variations, substitutions: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "stringUnit": stringUnit = member.node
      case "stringSet": stringSet = member.node
      case "variations": variations = member.node
      case "substitutions": substitutions = member.node
      default: break
      }
    }
    self.stringUnit = try stringUnit.read("stringUnit")
    self.stringSet = try stringSet.read("stringSet")
    self.variations = try variations.read("variations")
    self.substitutions = try substitutions.readMembers("substitutions")
  }
}

extension StringCatalogFile.StringUnit: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var state, value: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "state": state = member.node
      case "value": value = member.node
      default: break
      }
    }
    self.state = try state.read("state")
    self.value = try value.readRequired("value", in: node)
  }
}

extension StringCatalogFile.StringSet: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var state, values: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "state": state = member.node
      case "values": values = member.node
      default: break
      }
    }
    self.state = try state.read("state")
    self.values = try values.readRequired("values", in: node)
  }
}

extension StringCatalogFile.Variations: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var plural, device: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "plural": plural = member.node
      case "device": device = member.node
      default: break
      }
    }
    self.plural = try plural.readMembers("plural")
    self.device = try device.readMembers("device")
  }
}

extension StringCatalogFile.Variant: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var stringUnit, variations: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "stringUnit": stringUnit = member.node
      case "variations": variations = member.node
      default: break
      }
    }
    self.stringUnit = try stringUnit.read("stringUnit")
    self.variations = try variations.read("variations")
  }
}

extension StringCatalogFile.Substitution: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var argNum, formatSpecifier, variations: JSONNode?
    for member in try node.object() {
      switch member.key {
      case "argNum": argNum = member.node
      case "formatSpecifier": formatSpecifier = member.node
      case "variations": variations = member.node
      default: break
      }
    }
    self.argNum = try argNum.read("argNum")
    self.formatSpecifier = try formatSpecifier.read("formatSpecifier")
    self.variations = try variations.read("variations")
  }
}

// MARK: - Fields

/// A model, or a JSON scalar, read from a node of the parsed tree.
private protocol NodeDecodable {
  /// Reads the value.
  ///
  /// - Throws: `StructureFailure` when the node has the wrong type or lacks a required field.
  init(_ node: JSONNode) throws(StructureFailure)
}

extension Optional where Wrapped == JSONNode {
  /// Reads a field that may be absent or `null`.
  ///
  /// - Parameter name: The field's name, for the path of a failure.
  /// - Returns: The value, or `nil` when the field is absent or `null`.
  /// - Throws: `StructureFailure` inside the field.
  fileprivate func read<Value: NodeDecodable>(_ name: String) throws(StructureFailure) -> Value? {
    guard let node = self, !node.isNull else { return nil }
    do {
      return try Value(node)
    } catch {
      throw error.inside(name)
    }
  }

  /// Reads a field that must be present.
  ///
  /// - Parameters:
  ///   - name: The field's name, for the path of a failure.
  ///   - object: The object the field belongs to, which a failure points at when it is absent.
  /// - Returns: The value.
  /// - Throws: `StructureFailure` when the field is absent, or inside the field.
  fileprivate func readRequired<Value: NodeDecodable>(
    _ name: String, in object: JSONNode
  ) throws(StructureFailure) -> Value {
    guard let node = self else { throw .missing(name, in: object) }
    do {
      return try Value(node)
    } catch {
      throw error.inside(name)
    }
  }

  /// Reads a field that may be absent or `null` and is otherwise an object whose every member
  /// holds the same kind of value, such as `strings`.
  ///
  /// - Parameter name: The field's name, for the path of a failure.
  /// - Returns: The members' names and values in written order, or `nil` when the field is absent
  ///   or `null`.
  /// - Throws: `StructureFailure` inside the field.
  fileprivate func readMembers<Value: NodeDecodable>(
    _ name: String
  ) throws(StructureFailure) -> [(name: String, value: Value)]? {
    guard let node = self, !node.isNull else { return nil }
    do throws(StructureFailure) {
      let members = try node.object()
      var result: [(name: String, value: Value)] = []
      result.reserveCapacity(members.count)
      for member in members {
        do {
          result.append((member.key, try Value(member.node)))
        } catch {
          throw error.inside(member.key)
        }
      }
      return result
    } catch {
      throw error.inside(name)
    }
  }
}

// MARK: - Typed values

extension JSONNode {
  /// The members of an object.
  fileprivate func object() throws(StructureFailure) -> JSONObject {
    guard case .object(let members) = value else { throw mismatch("an object") }
    return members
  }

  /// The elements of an array.
  fileprivate func array() throws(StructureFailure) -> JSONArray {
    guard case .array(let elements) = value else { throw mismatch("an array") }
    return elements
  }

  /// The failure of a node that is not of the expected type, such as
  /// `expected a string, found the number 3`.
  fileprivate func mismatch(_ expected: String) -> StructureFailure {
    StructureFailure("expected \(expected), found \(value.kindName.abridgedInProblem)", at: self)
  }
}

extension String: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    guard case .string(let text) = node.value else { throw node.mismatch("a string") }
    self = text
  }
}

extension Bool: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    guard case .bool(let flag) = node.value else { throw node.mismatch("true or false") }
    self = flag
  }
}

extension Int: NodeDecodable {
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

extension [String]: NodeDecodable {
  fileprivate init(_ node: JSONNode) throws(StructureFailure) {
    var result: [String] = []
    for (index, element) in try node.array().enumerated() {
      do {
        result.append(try String(element))
      } catch {
        throw error.inside(String(index))
      }
    }
    self = result
  }
}
