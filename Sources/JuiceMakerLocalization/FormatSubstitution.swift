/// A compiled `%#@name@` substitution: one argument whose surrounding words vary by plural.
///
/// Inside its branches, `%arg` stands for the argument, formatted with ``formatSpecifier``.
struct FormatSubstitution: Sendable {
  /// The name used in `%#@name@`.
  let name: String
  /// The 1-based argument number from `argNum`, or `nil` to take the next argument in order of
  /// appearance.
  let argumentNumber: Int?
  /// The format specifier for `%arg` without its `%`, such as `lld`; `lld` when absent.
  let formatSpecifier: String
  /// How `%arg` is formatted, or `nil` when ``formatSpecifier`` is not supported.
  let format: FormatSpecifier?
  /// The plural branches, or `nil` when the substitution has none (then `%#@name@` renders the
  /// argument alone).
  let forms: PluralForms?

  /// Compiles a decoded substitution.
  ///
  /// - Parameters:
  ///   - name: The substitution's name.
  ///   - substitution: The decoded substitution.
  init(name: String, _ substitution: StringCatalogFile.Substitution) {
    self.name = name
    self.argumentNumber = substitution.argNum
    let specifier = substitution.formatSpecifier ?? "lld"
    self.formatSpecifier = specifier
    self.format = FormatTemplate.substitutionFormat(specifier)
    self.forms = substitution.variations?.plural.map { PluralForms($0, substitutions: nil) }
  }

  /// What is wrong with the substitution's own fields, if anything.
  var problem: SpecifierProblem? {
    if let argumentNumber, argumentNumber < 1 {
      return .invalidPosition
    }
    if format == nil {
      return .invalidSubstitutionFormat(formatSpecifier)
    }
    return nil
  }
}
