import JuiceMakerKit
import Testing

struct PluralRulesTests {
  @Test(arguments: [(0, PluralCategory.other), (1, .one), (2, .other), (21, .other), (-1, .one)])
  func englishUsesOneOnlyForExactlyOne(count: Int, category: PluralCategory) {
    #expect(PluralRule(language: "en").category(for: count) == category)
    #expect(PluralRule(language: "en-GB").category(for: count) == category)
  }

  @Test(arguments: [0, 1, 2, 21])
  func koreanAlwaysUsesOther(count: Int) {
    #expect(PluralRule(language: "ko").category(for: count) == .other)
    #expect(PluralRule(language: "ko-KR").category(for: count) == .other)
  }

  @Test func languagesCLDRHasNoRulesForFallBackToOneOrOther() {
    let rule = PluralRule(language: "x-unknown")
    #expect(!rule.isFromCLDR)
    #expect(rule.category(for: 1) == .one)
    #expect(rule.category(for: 5) == .other)
    #expect(rule.categories == [.one, .other])
  }

  @Test func englishNeedsOneAndOtherWhileKoreanNeedsOther() {
    #expect(PluralRule(language: "en").neededCategories(takesFractions: false) == [.one, .other])
    #expect(PluralRule(language: "ko").neededCategories(takesFractions: true) == [.other])
  }

  @Test(arguments: [
    ("ru", false, [PluralCategory.one, .few, .many, .other]),
    ("cs", false, [.one, .few, .other]),
    ("cs", true, [.one, .few, .many, .other]),
    ("lt", false, [.one, .few, .other]),
    ("lt", true, [.one, .few, .many, .other]),
    ("fr", false, [.one, .many, .other]),
    ("ar", false, [.zero, .one, .two, .few, .many, .other]),
    ("he", false, [.one, .two, .other]),
    ("cy", false, [.zero, .one, .two, .few, .many, .other]),
    ("ja", true, [.other]),
  ])
  func aLanguageNeedsTheCategoriesItsNumbersTake(
    language: String, takesFractions: Bool, expected: [PluralCategory]
  ) {
    #expect(
      PluralRule(language: language).neededCategories(takesFractions: takesFractions) == expected)
  }

  /// Every number of `Fixtures/Localization/PluralReference.tsv`, written by the generator
  /// with Babel's own evaluator of the CLDR rules, chooses the same category here.
  @Test(arguments: try PluralReference.rows())
  func everyNumberChoosesTheReferenceCategory(row: PluralReference.Row) throws {
    let rule = PluralRule(language: row.language)
    #expect(rule.isFromCLDR)
    for number in row.numbers {
      let operands = try #require(PluralReference.operands(number))
      #expect(
        rule.category(for: operands) == row.category,
        "\(row.language) \(number): \(rule.category(for: operands)), not \(row.category)")
    }
  }

  @Test func theReferenceCoversTheLanguagesTheIssueNames() throws {
    let languages = Set(try PluralReference.rows().map(\.language))
    let named = [
      "en", "ko", "ja", "zh", "ru", "uk", "pl", "cs", "ar", "he", "fr", "pt", "lt", "cy",
    ]
    #expect(Set(named).isSubset(of: languages))
  }

  /// CLDR's own samples, written out by hand, for the languages whose rules differ most.
  @Test(arguments: [
    ("ru", [1, 21, 101, 1001], [2, 3, 4, 22, 104], [0, 5, 11, 12, 14, 19, 25, 111]),
    ("uk", [1, 21, 31], [2, 3, 24], [0, 5, 11, 13, 100]),
    ("pl", [1], [2, 3, 4, 22, 24, 102], [0, 5, 11, 12, 14, 21, 25, 112]),
    ("cs", [1], [2, 3, 4], []),
    ("lt", [1, 21, 31], [2, 9, 22, 29], []),
  ])
  func slavicAndBalticWholeNumbersTakeOneFewAndMany(
    language: String, one: [Int], few: [Int], many: [Int]
  ) {
    let rule = PluralRule(language: language)
    for count in one { #expect(rule.category(for: count) == .one, "\(language) \(count)") }
    for count in few { #expect(rule.category(for: count) == .few, "\(language) \(count)") }
    for count in many { #expect(rule.category(for: count) == .many, "\(language) \(count)") }
  }

  @Test func fractionsUseTheVisibleFractionDigits() {
    #expect(PluralRule(language: "en").category(for: PluralOperands(1.0)) == .one)
    #expect(PluralRule(language: "en").category(for: PluralOperands(1.5)) == .other)
    #expect(PluralRule(language: "cs").category(for: PluralOperands(1.5)) == .many)
    #expect(PluralRule(language: "lt").category(for: PluralOperands(0.1)) == .many)
    #expect(PluralRule(language: "fr").category(for: PluralOperands(1.5)) == .one)
    #expect(PluralRule(language: "he").category(for: PluralOperands(0.5)) == .one)
    #expect(PluralRule(language: "ru").category(for: PluralOperands(2.5)) == .other)
    // Latvian looks at the fraction digits themselves: 0.1 is `one`, 0.11 `zero`.
    #expect(PluralRule(language: "lv").category(for: PluralOperands(0.1)) == .one)
    #expect(PluralRule(language: "lv").category(for: PluralOperands(0.11)) == .zero)
    #expect(PluralRule(language: "ru").category(for: PluralOperands(Double.nan)) == .other)
  }

  @Test func operandsFollowCLDR() {
    let tiny = PluralOperands(0.00012)
    #expect([tiny.i, tiny.v, tiny.w, tiny.f, tiny.t] == [0, 5, 5, 12, 12])
    let half = PluralOperands(-2.5)
    #expect([half.i, half.v, half.w, half.f, half.t] == [2, 1, 1, 5, 5])
    let whole = PluralOperands(3.0)
    #expect([whole.i, whole.v, whole.f] == [3, 0, 0])
    // Huge magnitudes keep their last digits, so remainders stay exact.
    #expect(PluralOperands(Int.min).i % 1_000_000 == 775_808)
    #expect(PluralOperands(1e20).i % 1_000_000 == 0)
    #expect(PluralRule(language: "fr").category(for: PluralOperands(1e20)) == .many)
    #expect(PluralRule(language: "ru").category(for: Int.min) == .many)
  }

  @Test func regionalFormsUseTheirOwnRulesWhereCLDRHasThem() {
    // Brazilian Portuguese says "0 foto", European Portuguese "0 fotos".
    #expect(PluralRule(language: "pt-BR").category(for: 0) == .one)
    #expect(PluralRule(language: "pt_PT").category(for: 0) == .other)
    #expect(PluralRule(language: "zh-Hant-TW").categories == [.other])
    #expect(PluralRule(language: "sr-Latn").category(for: 21) == .one)
  }

  @Test(arguments: [
    ("ru", 1, "1 фотография"), ("ru", 22, "22 фотографии"), ("ru", 25, "25 фотографий"),
    ("ru", 111, "111 фотографий"), ("pl", 22, "22 zdjęcia"), ("pl", 12, "12 zdjęć"),
    ("uk", 21, "21 фотографія"), ("cs", 4, "4 fotky"), ("cs", 5, "5 fotek"),
    ("ar", 0, "لا توجد صور"), ("ar", 2, "صورتان"), ("ar", 3, "3 صور"), ("ar", 11, "11 صورة"),
    ("ar", 100, "100 صورة"), ("he", 2, "שתי תמונות"), ("he", 3, "3 תמונות"),
    ("fr", 0, "0 photo"), ("fr", 1_000_000, "1000000 de photos"), ("pt-BR", 0, "0 foto"),
    ("lt", 10, "10 nuotraukų"), ("lt", 21, "21 nuotrauka"), ("cy", 3, "3 llun"),
    ("cy", 2, "2 lun"), ("ja", 1, "写真1枚"), ("zh-Hans", 2, "2 张照片"),
  ])
  func realWorldCatalogChoosesEachLanguagesForm(
    language: String, count: Int, expected: String
  ) throws {
    let catalog = try StringCatalog(directory: LocalizationFixtures.url("RealWorld"))
    #expect(catalog.localizer(for: language).string("%lld photos", .int(count)) == expected)
  }

  @Test(arguments: [
    ("en", 1.0, "1.0 kilometer to go"), ("en", 1.5, "1.5 kilometers to go"),
    ("cs", 1.5, "Zbývá 1.5 kilometru"), ("cs", 2.0, "Zbývají 2.0 kilometry"),
    ("lt", 2.5, "Liko 2.5 kilometro"), ("ru", 2.5, "Осталось 2.5 километра"),
    ("fr", 1.5, "Encore 1.5 kilomètre"),
  ])
  func fractionsChooseTheirFormsToo(language: String, distance: Double, expected: String)
    throws
  {
    let catalog = try StringCatalog(directory: LocalizationFixtures.url("RealWorld"))
    #expect(
      catalog.localizer(for: language).string("distance.remaining", .double(distance)) == expected)
  }

  @Test func realWorldCatalogsRaiseNoPluralAlarms() throws {
    let catalog = try StringCatalog(directory: LocalizationFixtures.url("RealWorld"))
    let xcode = try StringCatalog(directory: LocalizationFixtures.url("Xcode"))
    let alarms = (catalog.validationIssues() + xcode.validationIssues()).filter { issue in
      switch issue.problem {
      case .missingPluralBranch, .unusedPluralCategory: true
      default: false
      }
    }
    // Korean never uses `one`: the one true alarm, in the Xcode fixtures.
    #expect(
      alarms == [
        LocalizationIssue(
          severity: .warning, language: "ko", key: "apples",
          problem: .unusedPluralCategory("one", substitution: nil))
      ])
  }

  @Test func validationReportsCategoriesALanguageNeedsOrNeverUses() throws {
    let catalog = try LocalizationFixtures.catalog(
      json: """
        {"sourceLanguage": "en", "strings": {"n": {"localizations": {
          "ru": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%lld яблоко"}},
            "other": {"stringUnit": {"state": "translated", "value": "%lld яблок"}}}}},
          "ja": {"variations": {"plural": {
            "other": {"stringUnit": {"state": "translated", "value": "りんご%lld個"}}}}},
          "en": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%lld apple"}},
            "few": {"stringUnit": {"state": "translated", "value": "%lld apples"}},
            "other": {"stringUnit": {"state": "translated", "value": "%lld apples"}}}}}}}}}
        """)
    let plural = catalog.validationIssues().filter { $0.key == "n" }.map(\.problem)
    #expect(
      plural == [
        .unusedPluralCategory("few", substitution: nil),
        .missingPluralBranch(.few, substitution: nil),
        .missingPluralBranch(.many, substitution: nil),
      ])
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
