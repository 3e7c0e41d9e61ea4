/// What is wrong with a format specifier in a catalog value.
///
/// The formatter renders such a specifier as a visible marker, `⟨%q?⟩`, and validation reports
/// it as an error.
public enum SpecifierProblem: Sendable, Hashable {
  /// The specifier stops before its conversion, such as a lone `%` or `%1$`.
  case incomplete
  /// The conversion or its length modifier is not supported, such as `%y`, `%n`, `%p`, or
  /// `%hf`.
  case unknownConversion
  /// A width or precision is larger than 4096, such as `%99999d`.
  case widthOrPrecisionTooLarge
  /// The argument number is 0 or too large to represent, such as `%0$@`.
  case invalidPosition
  /// `%#@name@` names a substitution the value does not define.
  case undefinedSubstitution(name: String)
  /// `%#@name@` appears inside a substitution's own branches.
  case nestedSubstitution
  /// `%arg` appears outside a substitution's branches.
  case argumentOutsideSubstitution
  /// A substitution's `formatSpecifier` is not a supported specifier.
  case invalidSubstitutionFormat(String)
}

// MARK: - CustomStringConvertible

extension SpecifierProblem: CustomStringConvertible {
  public var description: String {
    switch self {
    case .incomplete: "incomplete format specifier"
    case .unknownConversion: "unsupported format specifier"
    case .widthOrPrecisionTooLarge: "width or precision larger than 4096"
    case .invalidPosition: "invalid argument number"
    case .undefinedSubstitution(let name): "undefined substitution \"\(name)\""
    case .nestedSubstitution: "substitution inside a substitution"
    case .argumentOutsideSubstitution: "%arg outside a substitution"
    case .invalidSubstitutionFormat(let specifier):
      "unsupported substitution formatSpecifier \"\(specifier)\""
    }
  }
}
