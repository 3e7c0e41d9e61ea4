import JuiceMakerKit
import Testing

struct LocalizationValidationTests {
  /// One problem per key (a key's name says which), in English and Korean.
  private static let json = """
    {
      "sourceLanguage": "en",
      "version": "1.0",
      "strings": {
        "fruit.kiwi": {"localizations": {
          "en": {"variations": {"plural": {"other": {"stringUnit": {"state": "translated", "value": "kiwis"}}}}},
          "ko": {"stringUnit": {"state": "translated", "value": "키위"}}}},
        "fruit.mango": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "mango"}}}},
        "fruit.durian": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "durian"}},
          "ko": {"stringUnit": {"state": "translated", "value": "두리안"}}}},
        "juice.kiwi-juice": {"localizations": {
          "ko": {"stringUnit": {"state": "translated", "value": "키위쥬스"}}}},
        "order.made": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "Here is your %1$@."}},
          "ko": {"stringUnit": {"state": "needs_review", "value": "%1$@ 나왔습니다!"}}}},
        "order.weird": {"localizations": {
          "en": {"stringUnit": {"state": "approved", "value": "Weird"}},
          "ko": {"stringUnit": {"state": "translated", "value": "이상해요"}}}},
        "order.bad": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "Odd %q for %1$@"}},
          "ko": {"stringUnit": {"state": "translated", "value": "이상한 %1$@"}}}},
        "order.sub": {"localizations": {
          "en": {"stringUnit": {"state": "translated", "value": "%#@n@"},
                 "substitutions": {"n": {"argNum": 1, "formatSpecifier": "lld",
                   "variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%arg cup"}}}}}}},
          "ko": {"stringUnit": {"state": "translated", "value": "%#@nope@"}}}},
        "order.korean.plural": {"localizations": {
          "en": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%lld cup"}},
            "other": {"stringUnit": {"state": "translated", "value": "%lld cups"}}}}},
          "ko": {"variations": {"plural": {
            "one": {"stringUnit": {"state": "translated", "value": "%lld잔"}}}}}}}
      }
    }
    """

  private func issues() throws -> [LocalizationIssue] {
    try LocalizationFixtures.catalog(json: Self.json).validationIssues(
      fruitIDs: ["kiwi", "mango"], juiceIDs: ["kiwi-juice", "mango-juice"],
      requiredKeys: ["order.made", "order.required"])
  }

  @Test(arguments: [
    LocalizationIssue(
      severity: .error, language: "en", key: "juice.kiwi-juice", problem: .missingName),
    LocalizationIssue(
      severity: .error, language: "en", key: "juice.mango-juice", problem: .missingName),
    LocalizationIssue(
      severity: .warning, language: "ko", key: "juice.mango-juice", problem: .missingName),
    LocalizationIssue(
      severity: .warning, language: "ko", key: "fruit.mango", problem: .missingName),
    LocalizationIssue(
      severity: .error, language: "en", key: "order.required", problem: .missingString),
    LocalizationIssue(
      severity: .warning, language: "ko", key: "order.required", problem: .missingString),
    LocalizationIssue(
      severity: .warning, language: "en", key: "fruit.kiwi",
      problem: .missingPluralBranch(.one, substitution: nil)),
    LocalizationIssue(
      severity: .error, language: "ko", key: "order.korean.plural",
      problem: .missingPluralBranch(.other, substitution: nil)),
    LocalizationIssue(
      severity: .error, language: "en", key: "order.sub",
      problem: .missingPluralBranch(.other, substitution: "n")),
    LocalizationIssue(
      severity: .warning, language: "ko", key: "order.made",
      problem: .notTranslated(state: "needs_review", branch: nil)),
    LocalizationIssue(
      severity: .warning, language: "en", key: "order.weird",
      problem: .unknownState("approved", branch: nil)),
    LocalizationIssue(
      severity: .error, language: "en", key: "order.bad",
      problem: .malformedSpecifier(specifier: "%q", problem: .incomplete, branch: nil)),
    LocalizationIssue(
      severity: .error, language: "ko", key: "order.sub",
      problem: .malformedSpecifier(
        specifier: "%#@nope@", problem: .undefinedSubstitution(name: "nope"), branch: nil)),
    LocalizationIssue(severity: .warning, language: nil, key: "fruit.durian", problem: .unusedName),
    LocalizationIssue(
      severity: .warning, language: "ko", key: "order.korean.plural",
      problem: .unusedPluralCategory("one", substitution: nil)),
  ])
  func validationFlagsEachKindOfProblem(expected: LocalizationIssue) throws {
    #expect(try issues().contains(expected))
  }

  @Test func validationReportsNothingElse() throws {
    #expect(try issues().count == 15)
  }

  @Test func koreanNeedsOnlyTheOtherBranch() throws {
    let issues = try issues()
    #expect(!issues.contains { $0.language == "ko" && $0.key == "fruit.kiwi" })
    #expect(
      !issues.contains {
        $0.language == "ko" && $0.problem == .missingPluralBranch(.one, substitution: nil)
      })
  }

  @Test func unloadableCatalogsAreErrorIssues() {
    let issues = StringCatalog.validationIssues(
      directory: LocalizationFixtures.url("Broken"), fruitIDs: [], juiceIDs: [])
    #expect(issues.count == 5)
    #expect(issues.allSatisfy { $0.severity == .error })
    #expect(
      issues.first?.description.hasPrefix("error: ArgNumIsText.xcstrings: not a string catalog")
        == true)
  }

  @Test func duplicateKeyIssueNamesTheKey() {
    let issues = StringCatalog.validationIssues(
      directory: LocalizationFixtures.url("Duplicate"), fruitIDs: [], juiceIDs: [])
    #expect(issues.map(\.key) == ["fruit.strawberry", "fruit.strawberry"])
    #expect(issues.map(\.language) == ["en", "ko"])
  }

  @Test func packFruitWithoutANameIsAnError() throws {
    let catalog = try StringCatalog(directory: LocalizationFixtures.url("Pack"))
    let issues = catalog.validationIssues(
      fruitIDs: LocalizationFixtures.shippedFruit.map(\.id) + ["watermelon", "coconut", "durian"],
      juiceIDs: LocalizationFixtures.shippedJuice.map(\.id) + ["watermelon-juice"],
      requiredKeys: LocalizationKey.messages)
    #expect(
      issues == [
        LocalizationIssue(
          severity: .error, language: "en", key: "fruit.durian", problem: .missingName),
        LocalizationIssue(
          severity: .warning, language: "ko", key: "fruit.durian", problem: .missingName),
      ])
  }

  @Test func untranslatedAndUnusedShippedNamesAreWarnings() throws {
    let issues = try LocalizationFixtures.shippedCatalog().validationIssues(
      fruitIDs: ["kiwi"], juiceIDs: [], requiredKeys: LocalizationKey.messages)
    #expect(!issues.isEmpty)
    #expect(issues.allSatisfy { $0.severity == .warning && $0.problem == .unusedName })
    #expect(issues.count == 4 + 7)
  }

  @Test func issueDescribesSeverityLanguageKeyAndProblem() {
    let issue = LocalizationIssue(
      severity: .error, language: "en", key: "fruit.kiwi", problem: .missingName)
    #expect(issue.description == "error: [en] fruit.kiwi: missing name")
    #expect(LocalizationIssue.Severity.warning < .error)
  }
}
