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

  /// The conversion of a length modifier and conversion character, or `nil` if unsupported.
  ///
  /// - Parameters:
  ///   - length: The UTF-8 bytes of the length modifier, such as `ll`, or none.
  ///   - character: The conversion character, such as `d` or `@`.
  init?(length: some Collection<UInt8>, character: UInt8) {
    switch character {
    case UInt8(ascii: "@") where length.isEmpty: self = .object
    case UInt8(ascii: "d"), UInt8(ascii: "i"): self = .signed
    case UInt8(ascii: "u"): self = .unsigned
    default: return nil
    }
    guard Self.isLengthModifier(length) else { return nil }
  }

  /// The conversion of a specifier written without its `%`, such as a substitution's
  /// `formatSpecifier` `lld`, or `nil` if unsupported.
  ///
  /// - Parameter specifier: The specifier, such as `lld`, `d`, or `@`.
  init?(specifier: String) {
    guard let character = specifier.utf8.last else { return nil }
    self.init(length: specifier.utf8.dropLast(), character: character)
  }

  /// Whether bytes spell an accepted length modifier: none, `h`, `hh`, `l`, `ll`, `q`, `z`, `j`,
  /// or `t`.
  private static func isLengthModifier(_ length: some Collection<UInt8>) -> Bool {
    var bytes = length.makeIterator()
    guard let first = bytes.next() else { return true }
    guard let second = bytes.next() else {
      switch first {
      case UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "z"),
        UInt8(ascii: "j"), UInt8(ascii: "t"):
        return true
      default:
        return false
      }
    }
    return bytes.next() == nil && first == second
      && (first == UInt8(ascii: "h") || first == UInt8(ascii: "l"))
  }
}
