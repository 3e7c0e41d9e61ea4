/// A problem noticed while choosing a language or rendering a string; the output is still usable.
///
/// Rendering never crashes and never fails: a key that is missing renders as the key itself, and a
/// specifier that cannot be rendered renders as a marker such as `⟨%5$@?⟩`. Each such fallback
/// records one warning, which ``LocalizedText/warnings`` returns and the localizer's warning
/// handler receives.
public struct LocalizationWarning: Sendable, Hashable {
  /// What went wrong.
  public enum Problem: Sendable, Hashable {
    /// The catalog has no strings for the requested language; the source language is used.
    case unsupportedLanguage(requested: String, fallback: String)
    /// No language in the fallback chain has a value for the key; the key itself is shown.
    case missingKey
    /// A specifier refers to an argument that was not passed.
    case missingArgument(specifier: String, position: Int)
    /// A specifier got an argument of the wrong kind, such as text for `%lld`, a negative
    /// number for `%u`, a whole number for `%f`, or a `*` width above 4096.
    case mismatchedArgument(specifier: String, position: Int, argument: LocalizedArgument)
    /// A specifier cannot be rendered at all.
    case malformedSpecifier(specifier: String, problem: SpecifierProblem)
    /// A substitution has no plural branch for the count and no `other` branch.
    case missingPluralBranch(specifier: String, category: PluralCategory)
  }

  /// The key being rendered, or `nil` for a warning about the language itself.
  public let key: String?
  /// The language of the value being rendered, or the requested language.
  public let language: String?
  /// What went wrong.
  public let problem: Problem

  /// Creates a warning.
  ///
  /// - Parameters:
  ///   - key: The key being rendered, or `nil`.
  ///   - language: The language concerned, or `nil`.
  ///   - problem: What went wrong.
  public init(key: String?, language: String?, problem: Problem) {
    self.key = key
    self.language = language
    self.problem = problem
  }
}

// MARK: - CustomStringConvertible

extension LocalizationWarning: CustomStringConvertible {
  public var description: String {
    let place = [language.map { "[\($0)]" }, key].compactMap { $0 }.joined(separator: " ")
    let prefix = place.isEmpty ? "" : place + ": "
    switch problem {
    case .unsupportedLanguage(let requested, let fallback):
      return "\(prefix)no strings for language \"\(requested)\"; using \"\(fallback)\""
    case .missingKey:
      return "\(prefix)no value in any language; showing the key"
    case .missingArgument(let specifier, let position):
      return "\(prefix)\(specifier) refers to argument \(position), which was not given"
    case .mismatchedArgument(let specifier, let position, let argument):
      let kind =
        switch argument {
        case .string: "text"
        case .int(let number): "the number \(number)"
        case .double(let number): "the number \(number)"
        }
      return "\(prefix)\(specifier) cannot format argument \(position), \(kind)"
    case .malformedSpecifier(let specifier, let problem):
      return "\(prefix)\(specifier): \(problem)"
    case .missingPluralBranch(let specifier, let category):
      return "\(prefix)\(specifier) has neither a \"\(category.rawValue)\" nor an \"other\" branch"
    }
  }
}
