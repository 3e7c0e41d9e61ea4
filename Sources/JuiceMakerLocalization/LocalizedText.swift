/// A rendered string together with what rendering it noticed.
public struct LocalizedText: Sendable, Hashable {
  /// The text to show; never empty unless an argument rendered empty.
  public let value: String
  /// The catalog language the value came from, or `nil` when the key itself is shown.
  public let language: String?
  /// The fallbacks taken: a missing key, a missing or mismatched argument, a malformed specifier.
  public let warnings: [LocalizationWarning]

  /// Creates a rendered string.
  ///
  /// - Parameters:
  ///   - value: The text.
  ///   - language: The language it came from, or `nil`.
  ///   - warnings: The warnings recorded while rendering.
  public init(value: String, language: String?, warnings: [LocalizationWarning] = []) {
    self.value = value
    self.language = language
    self.warnings = warnings
  }
}
