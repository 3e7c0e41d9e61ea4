import JuiceMakerKit
import Testing

struct LocalizerFallbackTests {
  private func catalog() throws -> StringCatalog {
    try LocalizationFixtures.catalog(values: [
      "both": ["en": "Both", "ko": "둘 다"],
      "english.only": ["en": "English only"],
      "korea.only": ["ko-KR": "대한민국만"],
      "empty.korean": ["en": "Not empty", "ko": ""],
      "empty.everywhere": ["en": "", "ko": ""],
    ])
  }

  @Test func keyMissingInKoreanFallsBackToEnglish() throws {
    let text = try catalog().localizer(for: "ko").rendering("english.only")
    #expect(text.value == "English only")
    #expect(text.language == "en")
    #expect(text.warnings == [])
  }

  @Test func regionalTagFallsBackToTheLanguage() throws {
    let korean = try catalog().localizer(for: "ko-KR")
    #expect(korean.requestedLanguage == "ko-KR")
    #expect(korean.language == "ko-KR")
    #expect(korean.string("korea.only") == "대한민국만")
    #expect(korean.rendering("both").language == "ko")
    #expect(korean.string("both") == "둘 다")
    #expect(korean.string("english.only") == "English only")
    #expect(korean.fallbackWarning == nil)
  }

  @Test func regionalTagMatchesLanguageOnlyCatalogs() throws {
    let korean = try LocalizationFixtures.shippedCatalog().localizer(for: "ko_KR.UTF-8")
    #expect(korean.language == "ko")
    #expect(korean.string("answer.yes") == "예")
    #expect(korean.fallbackWarning == nil)
  }

  @Test func plainKoreanDoesNotUseRegionalValues() throws {
    #expect(try catalog().localizer(for: "ko").string("korea.only") == "korea.only")
  }

  @Test func emptyValueFallsBack() throws {
    let korean = try catalog().localizer(for: "ko")
    #expect(korean.string("empty.korean") == "Not empty")
    #expect(korean.string("empty.everywhere") == "empty.everywhere")
  }

  @Test func unknownLanguageFallsBackToTheSourceWithOneWarning() throws {
    let french = try catalog().localizer(for: "fr_FR")
    #expect(
      french.fallbackWarning
        == LocalizationWarning(
          key: nil, language: "fr-FR",
          problem: .unsupportedLanguage(requested: "fr-FR", fallback: "en")))
    #expect(french.language == "en")
    let text = french.rendering("both")
    #expect(text.value == "Both")
    #expect(text.warnings == [])
  }

  @Test(arguments: [nil, "C", "POSIX", "C.UTF-8", ""] as [String?])
  func noPreferenceUsesTheSourceLanguageWithoutWarning(language: String?) throws {
    let localizer = try catalog().localizer(for: language)
    #expect(localizer.requestedLanguage == nil)
    #expect(localizer.language == "en")
    #expect(localizer.fallbackWarning == nil)
    #expect(localizer.string("both") == "Both")
  }

  @Test func missingKeyShowsTheKeyWithAWarning() throws {
    let text = try catalog().localizer(for: "ko").rendering("no.such.key")
    #expect(text.value == "no.such.key")
    #expect(text.language == nil)
    #expect(
      text.warnings == [
        LocalizationWarning(key: "no.such.key", language: "ko", problem: .missingKey)
      ])
  }

  @Test func listUsesTheSeparatorOrACommaWithoutOne() throws {
    #expect(try catalog().localizer(for: "en").list(["a", "b", "c"]) == "a, b, c")
    let shipped = try LocalizationFixtures.shippedCatalog().localizer(for: "ko")
    #expect(shipped.list(["키위 1개", "딸기 6개"]) == "키위 1개, 딸기 6개")
    #expect(shipped.list([]) == "")
  }
}
