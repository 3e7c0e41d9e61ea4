import JuiceMakerKit

// MARK: - Choosing the language

extension Localizer {
  /// The language the user prefers, from an explicit choice or the environment.
  ///
  /// The first of these that is set, non-empty, and not `C` or `POSIX` wins, normalized with
  /// ``LanguageTag/normalized(_:)``: the explicit value (such as a `--lang` option),
  /// `JUICE_MAKER_LANG`, `LC_ALL`, `LC_MESSAGES`, `LANG`.
  ///
  /// ```swift
  /// Localizer.preferredLanguage(arguments: nil, environment: ["LANG": "ko_KR.UTF-8"])  // "ko-KR"
  /// Localizer.preferredLanguage(arguments: nil, environment: ["LANG": "C"])            // nil
  /// ```
  ///
  /// - Parameters:
  ///   - lang: The explicitly chosen language, or `nil`.
  ///   - environment: The process environment.
  /// - Returns: A normalized tag, or `nil` for no preference (use the catalog's source language).
  package static func preferredLanguage(
    arguments lang: String?, environment: [String: String]
  ) -> String? {
    preferredLanguage(choices: [lang, environment["JUICE_MAKER_LANG"]], environment: environment)
  }
}
