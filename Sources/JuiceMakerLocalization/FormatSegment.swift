/// One piece of a parsed catalog value.
enum FormatSegment: Sendable {
  /// Text copied as is (with `%%` already turned into `%`).
  case literal(String)
  /// An argument: `%@`, `%lld`, `%2$@`, `%-8.2f`, ….
  ///
  /// `position` is 1-based; `specifier` is the text as written, for markers and warnings.
  case argument(position: Int, format: FormatSpecifier, specifier: String)
  /// A `%#@name@` substitution whose argument is `position`.
  case substitution(FormatSubstitution, position: Int, specifier: String)
  /// `%arg` inside a substitution's branch: the substitution's argument.
  case substitutionArgument
  /// A Korean particle notation such as `(이)가`, chosen from the text rendered before it.
  case particle(KoreanParticle, written: String)
  /// A specifier that cannot be rendered; it renders as a marker.
  case invalid(specifier: String, problem: SpecifierProblem)
}
