import Foundation

/// The on-disk shape of an Apple String Catalog (`.xcstrings`) file, exactly as Xcode writes it.
///
/// Decoding is tolerant: unknown fields are ignored, `strings` and every field below it except a
/// string unit's `value` may be absent, and states are kept as written. Wrong types and
/// malformed JSON become ``LocalizationError`` values naming the file and the field.
struct StringCatalogFile: Decodable, Sendable {
  /// The language whose values are the reference, usually `en`.
  var sourceLanguage: String
  /// The format version, `1.0` today.
  var version: String?
  /// The entries, by key.
  var strings: [String: Entry]?

  /// One key of the catalog.
  struct Entry: Decodable, Sendable {
    var comment: String?
    var extractionState: String?
    var shouldTranslate: Bool?
    var localizations: [String: Localization]?
  }

  /// One key in one language.
  struct Localization: Decodable, Sendable {
    var stringUnit: StringUnit?
    var variations: Variations?
    var substitutions: [String: Substitution]?
  }

  /// A value with its translation state.
  struct StringUnit: Decodable, Sendable {
    var state: String?
    var value: String
  }

  /// Values that vary by plural category or by device.
  struct Variations: Decodable, Sendable {
    var plural: [String: Variant]?
    var device: [String: Variant]?
  }

  /// One branch of a variation.
  struct Variant: Decodable, Sendable {
    var stringUnit: StringUnit?
    var variations: Variations?
  }

  /// A `%#@name@` substitution: an argument whose surrounding words vary by plural.
  struct Substitution: Decodable, Sendable {
    var argNum: Int?
    var formatSpecifier: String?
    var variations: Variations?
  }
}

// MARK: - Decoding

extension StringCatalogFile {
  /// Decodes one catalog file.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - file: The file's name, used in errors.
  /// - Returns: The decoded file.
  /// - Throws: `LocalizationError.malformedJSON` or `LocalizationError.invalidStructure`.
  static func decode(_ data: Data, file: String) throws(LocalizationError) -> StringCatalogFile {
    // The strict parser of packs first: it rejects what JSONDecoder lets pass (a key
    // repeated in one object, where the last value would silently win) and says where.
    do throws(JSONParser.Failure) {
      _ = try JSONParser.parse([UInt8](data))
    } catch {
      throw .malformedJSON(
        file: file, reason: "line \(error.line), column \(error.column): \(error.reason)")
    }
    do {
      return try JSONDecoder().decode(StringCatalogFile.self, from: data)
    } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
      throw .malformedJSON(
        file: file, reason: syntaxErrorDescription(data) ?? context.debugDescription)
    } catch let error as DecodingError {
      throw LocalizationError(error, file: file)
    } catch {
      throw .malformedJSON(file: file, reason: String(describing: error))
    }
  }

  /// Where and why JSON is malformed, as `invalid value around line 4, column 20`, or `nil`.
  ///
  /// `JSONDecoder` on Linux says only that the data is not valid JSON; `JSONSerialization` says
  /// where, as a byte offset, which this turns into a line and column.
  private static func syntaxErrorDescription(_ data: Data) -> String? {
    let message: String
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return nil
    } catch {
      guard let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
      else { return nil }
      message = description
    }
    return located(message, in: data)
      .trimmingCharacters(in: CharacterSet(charactersIn: "."))
      .lowercasedFirstLetter
  }

  /// Replaces `around character 64` in a message with `around line 4, column 20`.
  private static func located(_ message: String, in data: Data) -> String {
    guard let range = message.range(of: "around character ") else { return message }
    let digits = message[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
    guard let offset = Int(digits), offset <= data.count else { return message }
    let prefix = data.prefix(offset)
    let line = prefix.count { $0 == UInt8(ascii: "\n") } + 1
    let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
    let end = message.index(range.upperBound, offsetBy: digits.count)
    return message.replacingCharacters(
      in: range.lowerBound..<end, with: "around line \(line), column \(column)")
  }
}

extension String {
  fileprivate var lowercasedFirstLetter: String {
    prefix(1).lowercased() + dropFirst()
  }
}

extension LocalizationError {
  /// Translates a decoding error into a problem naming the file and the field.
  init(_ error: DecodingError, file: String) {
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      self = .malformedJSON(file: file, reason: context.debugDescription)
    case .dataCorrupted(let context):
      self = .invalidStructure(
        file: file, path: Self.path(context.codingPath), reason: context.debugDescription)
    case .typeMismatch(_, let context):
      self = .invalidStructure(
        file: file, path: Self.path(context.codingPath), reason: context.debugDescription)
    case .valueNotFound(_, let context):
      self = .invalidStructure(
        file: file, path: Self.path(context.codingPath), reason: context.debugDescription)
    case .keyNotFound(let key, let context):
      self = .invalidStructure(
        file: file, path: Self.path(context.codingPath + [key]),
        reason: "missing required field \"\(key.stringValue)\"")
    @unknown default:
      self = .malformedJSON(file: file, reason: String(describing: error))
    }
  }

  /// Spells a coding path like `strings["fruit.kiwi"].localizations.en`.
  private static func path(_ codingPath: [any CodingKey]) -> String {
    var result = ""
    for key in codingPath {
      if let index = key.intValue {
        result += "[\(index)]"
      } else if !key.stringValue.isEmpty,
        key.stringValue.unicodeScalars.allSatisfy({
          $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        })
      {
        result += result.isEmpty ? key.stringValue : "." + key.stringValue
      } else {
        result += "[\"\(key.stringValue)\"]"
      }
    }
    return result.isEmpty ? "(top level)" : result
  }
}
