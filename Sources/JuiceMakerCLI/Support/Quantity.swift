import JuiceMakerCatalog

/// Reads whole numbers from the command line, with the usage error each misreading earns.
enum Quantity {
  /// What a number must be.
  enum Rule {
    /// 1 or more.
    case positive
    /// 0 or more.
    case nonNegative
  }

  /// Parses a whole number for an option or argument.
  ///
  /// - Parameters:
  ///   - text: The text as given.
  ///   - name: The option or argument, as messages name it (`--count`, `N`).
  ///   - rule: What the number must be.
  /// - Returns: The number.
  /// - Throws: `CLIError` when the text is not a whole number, has a sign that changes
  ///   nothing (`+5`, `-0`), does not fit, or breaks the rule.
  static func parse(_ text: String, for name: String, _ rule: Rule) throws(CLIError) -> Int {
    let trimmed = text.trimmingWhitespace()
    let signed = trimmed.hasPrefix("-") || trimmed.hasPrefix("+")
    let digits = signed ? trimmed.dropFirst() : Substring(trimmed)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw .notWholeNumber(value: text, option: name)
    }
    // A sign that changes nothing (`+5`, `-0`) is refused: one number, one spelling.
    if trimmed.hasPrefix("+") || (signed && digits.allSatisfy { $0 == "0" }) {
      throw .signedNumber(value: text, option: name)
    }
    guard let value = Int(trimmed) else {
      throw .tooLarge(value: text, option: name)
    }
    switch rule {
    case .positive where value < 1:
      throw .notPositive(value: text, option: name)
    case .nonNegative where value < 0:
      throw .negative(value: text, option: name)
    default:
      return value
    }
  }
}
