/// Chooses the plural category of a number for one language, by CLDR's rules.
///
/// The rules of every language CLDR has them for are generated from CLDR's data into
/// ``CLDRPluralRuleSet`` (see <doc:StringCatalogs> for the version and how to update it). A
/// language is looked up by its tag and then by its less specific forms (`pt-PT`, then `pt`).
/// A language CLDR has no rules for takes `one` for exactly 1 and `other` for everything else,
/// as English does; it is the documented fallback, and validation does not report categories
/// such a language might never use.
///
/// Independently of the rule, an explicit `zero` branch in the catalog wins for 0 in every
/// language, as in Apple's runtime (see <doc:StringCatalogs>).
package struct PluralRule: Sendable, Hashable {
  /// The language's CLDR rules, or `nil` for a language CLDR has none for.
  package let rules: CLDRPluralRuleSet?

  /// The rule for a language tag.
  ///
  /// ```swift
  /// PluralRule(language: "ru-RU").category(for: 21)  // .one
  /// PluralRule(language: "ko").category(for: 1)     // .other
  /// ```
  ///
  /// - Parameter language: A language tag such as `en`, `ko-KR`, `pt_PT`, or `zh-Hant-TW`.
  package init(language: String) {
    let tag = LanguageTag.normalized(language) ?? language
    var rules: CLDRPluralRuleSet?
    for candidate in LanguageTag.fallbacks(for: tag) {
      if let found = CLDRPluralRuleSet(tag: candidate) {
        rules = found
        break
      }
    }
    self.rules = rules
  }

  /// The category of a whole number, ignoring any `zero` branch.
  ///
  /// - Parameter count: The number the text talks about.
  /// - Returns: The category.
  package func category(for count: Int) -> PluralCategory {
    category(for: PluralOperands(count))
  }

  /// The category of a number, ignoring any `zero` branch.
  ///
  /// - Parameter operands: The number's operands; an infinite or NaN number takes `other`.
  /// - Returns: The category.
  package func category(for operands: PluralOperands) -> PluralCategory {
    guard operands.isFinite else { return .other }
    guard let rules else { return operands.i == 1 && operands.v == 0 ? .one : .other }
    return rules.category(operands)
  }

  /// Whether the rules are CLDR's rather than the fallback; only then is a category the rule
  /// never chooses reported as unused.
  package var isFromCLDR: Bool { rules != nil }

  /// Every category the rule chooses for some number, whole or not, in CLDR order; `other`
  /// is always one.
  package var categories: [PluralCategory] {
    rules?.categories ?? [.one, .other]
  }

  /// The categories a plural variation needs, in CLDR order: those the rule chooses for some
  /// whole number, and for a variation whose number may have a fraction (such as one shown
  /// with `%f`) those it chooses for fractions too. `other` is always one.
  ///
  /// - Parameter takesFractions: Whether the variation's number may have a fraction.
  /// - Returns: The categories.
  package func neededCategories(takesFractions: Bool) -> [PluralCategory] {
    guard let rules else { return [.one, .other] }
    var needed = takesFractions ? rules.categories : rules.wholeNumberCategories
    if !needed.contains(.other) {
      needed.append(.other)
    }
    return needed
  }
}
