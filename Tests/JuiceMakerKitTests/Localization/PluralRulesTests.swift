import JuiceMakerKit
import Testing

struct PluralRulesTests {
  @Test(arguments: [(0, PluralCategory.other), (1, .one), (2, .other), (21, .other), (-1, .other)])
  func englishUsesOneOnlyForExactlyOne(count: Int, category: PluralCategory) {
    #expect(PluralRule(language: "en").category(for: count) == category)
    #expect(PluralRule(language: "en-GB").category(for: count) == category)
  }

  @Test(arguments: [0, 1, 2, 21])
  func koreanAlwaysUsesOther(count: Int) {
    #expect(PluralRule(language: "ko").category(for: count) == .other)
    #expect(PluralRule(language: "ko-KR").category(for: count) == .other)
  }

  @Test func otherLanguagesFallBackToOneOrOther() {
    #expect(PluralRule(language: "fr") == .oneOrOther)
    #expect(PluralRule(language: "fr").category(for: 1) == .one)
    #expect(PluralRule(language: "fr").category(for: 5) == .other)
  }

  @Test func englishNeedsOneAndOtherWhileKoreanNeedsOther() {
    #expect(PluralRule(language: "en").requiredCategories == [.one, .other])
    #expect(PluralRule(language: "ko").requiredCategories == [.other])
  }

  @Test(arguments: [
    (0, "Here are 0 cups of Kiwi Juice. Enjoy!"),
    (1, "Here is 1 cup of Kiwi Juice. Enjoy!"),
    (2, "Here are 2 cups of Kiwi Juice. Enjoy!"),
    (21, "Here are 21 cups of Kiwi Juice. Enjoy!"),
  ])
  func englishMessageChoosesItsSubstitutionBranchByCount(count: Int, expected: String) throws {
    let english = try LocalizationFixtures.shippedCatalog().localizer(for: "en")
    #expect(english.string("order.made.many", "Kiwi Juice", .int(count)) == expected)
  }

  @Test(arguments: [(0, "kiwis"), (1, "kiwi"), (2, "kiwis"), (21, "kiwis")])
  func englishNameChoosesItsFormByCount(count: Int, expected: String) throws {
    let english = try LocalizationFixtures.shippedCatalog().localizer(for: "en")
    #expect(english.string("fruit.kiwi", count: count) == expected)
  }

  @Test(arguments: [(0, "No cups"), (1, "1 cup"), (2, "2 cups"), (21, "21 cups")])
  func zeroBranchWinsForZeroWhenPresent(count: Int, expected: String) throws {
    let english = try LocalizationFixtures.catalog("Tolerant.xcstrings").localizer(for: "en")
    #expect(english.string("variations.only", .int(count)) == expected)
  }

  @Test func zeroBranchWinsInKoreanToo() throws {
    let catalog = try LocalizationFixtures.catalog(
      json: """
        {"sourceLanguage": "en", "strings": {"cups": {"localizations": {"ko": {"variations": {
          "plural": {"zero": {"stringUnit": {"state": "translated", "value": "한 잔도 없어요"}},
                     "other": {"stringUnit": {"state": "translated", "value": "%lld잔"}}}}}}}}}
        """)
    let korean = catalog.localizer(for: "ko")
    #expect(korean.string("cups", 0) == "한 잔도 없어요")
    #expect(korean.string("cups", 1) == "1잔")
  }

  @Test func koreanIgnoresAOneBranch() throws {
    let catalog = try LocalizationFixtures.catalog(
      json: """
        {"sourceLanguage": "en", "strings": {"cups": {"localizations": {"ko": {"variations": {
          "plural": {"one": {"stringUnit": {"state": "translated", "value": "한 잔"}},
                     "other": {"stringUnit": {"state": "translated", "value": "%lld잔"}}}}}}}}}
        """)
    #expect(catalog.localizer(for: "ko").string("cups", 1) == "1잔")
  }

  @Test func explicitCountWinsOverTheFirstIntegerArgument() throws {
    let english = try LocalizationFixtures.catalog("Tolerant.xcstrings").localizer(for: "en")
    #expect(english.string("variations.only", 5, count: 1) == "5 cup")
  }

  @Test func substitutionsWithoutArgNumTakeArgumentsInOrderOfAppearance() throws {
    let english = try LocalizationFixtures.catalog("Tolerant.xcstrings").localizer(for: "en")
    #expect(english.string("no.argnum", "Mia", 1, 3) == "Mia has 1 apple and 3 pears")
    #expect(english.string("no.argnum", "Mia", 2, 1) == "Mia has 2 apples and 1 pear")
  }
}
