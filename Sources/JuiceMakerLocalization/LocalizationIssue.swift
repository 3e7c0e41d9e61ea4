import JuiceMakerCatalog

/// One problem validation found in the string catalogs.
///
/// Issues carry data; ``message`` and ``description`` spell them in English for the `validate`
/// command.
public struct LocalizationIssue: Sendable, Hashable {
  /// How serious an issue is.
  public enum Severity: String, Sendable, Hashable, Comparable {
    /// Worth fixing; the program still reads right, using a fallback.
    case warning
    /// Must be fixed: a catalog does not load, a name has no source text, or a specifier cannot
    /// be rendered.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }
  }

  /// What is wrong.
  public enum Problem: Sendable, Hashable {
    /// A catalog file does not load.
    case unloadable(LocalizationError)
    /// A name key the app requires, such as a loaded pack's fruit's, has no value in the
    /// language.
    case missingName
    /// A key the program uses, or a key other languages define, has no value in the language.
    case missingString
    /// A value is empty, so the next language is used instead.
    case emptyValue(branch: String?)
    /// A value's state is `new`, `needs_review`, `stale`, or absent rather than `translated`.
    case notTranslated(state: String?, branch: String?)
    /// A value's state is not one Xcode writes.
    case unknownState(String, branch: String?)
    /// A format specifier cannot be rendered.
    case malformedSpecifier(specifier: String, problem: SpecifierProblem, branch: String?)
    /// A plural variation lacks a category the language needs.
    case missingPluralBranch(PluralCategory, substitution: String?)
    /// A key with a name prefix, such as `fruit.`, names nothing the app loaded, such as no
    /// fruit of the loaded packs.
    case unusedName
    /// A key is written twice in one JSON object of a file; the last copy, at `line` and
    /// `column`, is used, and the copy whose value starts at `droppedLine` is not.
    case duplicateJSONKey(file: String, key: String, line: Int, column: Int, droppedLine: Int)
    /// A file's `version` is not one Xcode has written (1.0 to 1.3); it is read as those are.
    case unknownVersion(file: String, version: String)
    /// A plural variation has a category the language never chooses, or a name that is no
    /// plural category; it is ignored. An explicit `zero` is always used for 0, so never this.
    case unusedPluralCategory(String, substitution: String?)
  }

  /// Whether the issue must be fixed.
  public let severity: Severity
  /// The language concerned, or `nil` for the catalog as a whole.
  public let language: String?
  /// The key concerned, or `nil` for a whole file.
  public let key: String?
  /// What is wrong.
  public let problem: Problem

  /// Creates an issue.
  ///
  /// - Parameters:
  ///   - severity: Whether it must be fixed.
  ///   - language: The language, or `nil`.
  ///   - key: The key, or `nil`.
  ///   - problem: What is wrong.
  public init(severity: Severity, language: String?, key: String?, problem: Problem) {
    self.severity = severity
    self.language = language
    self.key = key
    self.problem = problem
  }

  /// The problem in an English sentence, without severity, language, or key.
  public var message: String {
    switch problem {
    case .unloadable(let error):
      return error.description
    case .missingName:
      return "missing name"
    case .missingString:
      return "missing string"
    case .emptyValue(let branch):
      return "empty value" + Self.suffix(branch)
    case .notTranslated(let state, let branch):
      return "state is \(state.map { "\"\($0)\"" } ?? "missing"), not \"translated\""
        + Self.suffix(branch)
    case .unknownState(let state, let branch):
      return "unknown state \"\(state)\"" + Self.suffix(branch)
    case .malformedSpecifier(let specifier, let problem, let branch):
      return "\(problem): \(specifier)" + Self.suffix(branch)
    case .missingPluralBranch(let category, let substitution):
      let place = substitution.map { " in substitution \($0)" } ?? ""
      return "plural variation\(place) lacks the \"\(category.rawValue)\" branch"
    case .unusedName:
      return "no loaded pack uses this name"
    case .duplicateJSONKey(let file, let key, let line, let column, let droppedLine):
      return "\(file): line \(line), column \(column): the key \"\(key.abridgedInProblem)\" "
        + "appears twice in one object; this last copy is used, the one at line \(droppedLine) "
        + "is ignored"
    case .unknownVersion(let file, let version):
      return "\(file): unknown version \"\(version.abridgedInProblem)\"; read as version 1.3"
    case .unusedPluralCategory(let category, let substitution):
      let place = substitution.map { " in substitution \($0)" } ?? ""
      return "plural variation\(place) has a \"\(category.abridgedInProblem)\" branch, "
        + "which this language never uses; it is ignored"
    }
  }

  private static func suffix(_ branch: String?) -> String {
    branch.map { " (\($0))" } ?? ""
  }
}

// MARK: - CustomStringConvertible

extension LocalizationIssue: CustomStringConvertible {
  /// The issue on one line: `error: [en] fruit.kiwi: missing name`.
  public var description: String {
    let place = [language.map { "[\($0)]" }, key].compactMap { $0 }.joined(separator: " ")
    return "\(severity.rawValue): " + (place.isEmpty ? "" : place + ": ") + message
  }
}
