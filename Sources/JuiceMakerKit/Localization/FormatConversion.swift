/// The kind of argument a format specifier takes.
///
/// Supported specifiers are `%@` for text and `%d`, `%i`, `%u` with an optional length modifier
/// (`h`, `hh`, `l`, `ll`, `q`, `z`, `j`, `t`) for integers: `%lld`, `%ld`, `%llu`, and so on.
/// Length modifiers never truncate: every integer renders in full.
enum FormatConversion: Sendable, Hashable {
  /// `%@`: a ``LocalizedArgument/string(_:)``.
  case object
  /// `%d`, `%i`, `%lld`, …: a ``LocalizedArgument/int(_:)``.
  case signed
  /// `%u`, `%llu`, …: a non-negative ``LocalizedArgument/int(_:)``.
  case unsigned

  /// The length modifiers accepted before `d`, `i`, and `u`.
  private static let lengthModifiers: Set<String> = ["", "h", "hh", "l", "ll", "q", "z", "j", "t"]

  /// The conversion of a length modifier and conversion character, or `nil` if unsupported.
  ///
  /// - Parameters:
  ///   - length: The length modifier, such as `ll`, or empty.
  ///   - character: The conversion character, such as `d` or `@`.
  init?(length: some StringProtocol, character: Unicode.Scalar) {
    switch character {
    case "@" where length.isEmpty: self = .object
    case "d", "i": self = .signed
    case "u": self = .unsigned
    default: return nil
    }
    guard Self.lengthModifiers.contains(String(length)) else { return nil }
  }

  /// The conversion of a specifier written without its `%`, such as a substitution's
  /// `formatSpecifier` `lld`, or `nil` if unsupported.
  ///
  /// - Parameter specifier: The specifier, such as `lld`, `d`, or `@`.
  init?(specifier: String) {
    guard let character = specifier.unicodeScalars.last else { return nil }
    self.init(length: String(specifier.unicodeScalars.dropLast()), character: character)
  }
}
