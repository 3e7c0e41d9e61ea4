/// Chooses the plural category of a count for one language.
///
/// JuiceMaker carries only the rules its languages need, following CLDR:
///
/// | Language | Rule | Categories it needs |
/// | --- | --- | --- |
/// | `en` | `one` for exactly 1, else `other` | `one`, `other` |
/// | `ko` | always `other` | `other` |
/// | anything else | `one` for exactly 1, else `other` (documented fallback) | `one`, `other` |
///
/// Independently of the rule, an explicit `zero` branch in the catalog wins for 0 in every
/// language (see <doc:StringCatalogs>), so "No strawberries" can be written for English and
/// Korean alike.
package enum PluralRule: Sendable, Hashable {
  /// `one` for exactly 1, `other` for everything else.
  case oneOrOther
  /// `other` for every count.
  case otherOnly

  /// The rule for a language tag, chosen by its primary subtag.
  ///
  /// ```swift
  /// PluralRule(language: "ko-KR")  // .otherOnly
  /// PluralRule(language: "en")     // .oneOrOther
  /// ```
  ///
  /// - Parameter language: A language tag such as `en`, `ko`, or `ko-KR`.
  package init(language: String) {
    let primary = language.prefix { $0 != "-" && $0 != "_" }.lowercased()
    self = primary == "ko" ? .otherOnly : .oneOrOther
  }

  /// The category of a count under this rule, ignoring any `zero` branch.
  ///
  /// - Parameter count: The number the text talks about.
  /// - Returns: `.one` or `.other`.
  package func category(for count: Int) -> PluralCategory {
    switch self {
    case .oneOrOther: count == 1 ? .one : .other
    case .otherOnly: .other
    }
  }

  /// Whether JuiceMaker carries the CLDR rule of a language (English and Korean), rather than
  /// using its fallback; only then is a category the rule never chooses reported as unused.
  ///
  /// - Parameter language: A language tag such as `en` or `ko-KR`.
  /// - Returns: `true` for `en` and `ko` and their regional forms.
  package static func carriesRule(for language: String) -> Bool {
    let primary = language.prefix { $0 != "-" && $0 != "_" }.lowercased()
    return primary == "en" || primary == "ko"
  }

  /// The categories a plural variation in this language must provide.
  package var requiredCategories: [PluralCategory] {
    switch self {
    case .oneOrOther: [.one, .other]
    case .otherOnly: [.other]
    }
  }
}
