import JuiceMakerCatalog

/// A problem that stops string catalogs from loading.
///
/// Every case names the file (or directory) it concerns, so a message can point a translator at
/// the exact place to fix. Loading collects every problem it can find in one pass; when there is
/// more than one, they arrive together as ``multiple(errors:)``.
public enum LocalizationError: Error, Hashable, Sendable {
  /// The catalog directory could not be listed.
  case unreadableDirectory(path: String, reason: String)
  /// There is no `.xcstrings` file to load at the given location.
  case noCatalogFiles(location: String)
  /// A catalog file could not be read from disk.
  case unreadableFile(file: String, reason: String)
  /// A catalog file is not valid JSON.
  case malformedJSON(file: String, reason: String)
  /// A catalog file is valid JSON but not a String Catalog: a required field is missing or a
  /// field has the wrong type. `path` locates the field, such as
  /// `strings["fruit.kiwi"].localizations.en.stringUnit.value`; `line` and `column` (1-based,
  /// in bytes) locate the value at fault, or the object that lacks the field.
  case invalidStructure(file: String, path: String, line: Int, column: Int, reason: String)
  /// Two catalog files give the same key a value in the same language (a normalized tag).
  case duplicateKey(key: String, language: String, firstFile: String, secondFile: String)
  /// Several of the problems above, found in one pass, in file order.
  case multiple(errors: [LocalizationError])
}

// MARK: - Flattening

extension LocalizationError {
  /// The individual problems, with ``multiple(errors:)`` unwrapped.
  public var problems: [LocalizationError] {
    switch self {
    case .multiple(let errors): errors.flatMap(\.problems)
    default: [self]
    }
  }

  /// Combines collected problems into one error, or returns `nil` when there are none.
  package static func combining(_ errors: [LocalizationError]) -> LocalizationError? {
    switch errors.count {
    case 0: nil
    case 1: errors[0]
    default: .multiple(errors: errors)
    }
  }
}

// MARK: - CustomStringConvertible

extension LocalizationError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unreadableDirectory(let path, let reason):
      "\(path): cannot list the localization directory: \(reason)"
    case .noCatalogFiles(let location):
      "\(location): no .xcstrings string catalog to load"
    case .unreadableFile(let file, let reason):
      "\(file): cannot read the string catalog: \(reason)"
    case .malformedJSON(let file, let reason):
      "\(file): not valid JSON: \(reason)"
    case .invalidStructure(let file, let path, let line, let column, let reason):
      "\(file): not a string catalog at \(path.abridgedInProblem) (line \(line), column \(column)): "
        + reason
    case .duplicateKey(let key, let language, let firstFile, let secondFile):
      "\(secondFile): key \"\(key.abridgedInProblem)\" is already defined in \(firstFile) "
        + "for language \"\(language.abridgedInProblem)\""
    case .multiple(let errors):
      errors.map(\.description).joined(separator: "\n")
    }
  }
}
