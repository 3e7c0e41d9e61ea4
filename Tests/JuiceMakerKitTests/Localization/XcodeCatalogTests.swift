import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerCatalog

/// Catalogs in Xcode's own format (`"key" : value`, keys sorted as Xcode sorts them) with every
/// shape real apps' catalogs have: keys without localizations, `%` in text that takes no
/// arguments, `stringSet`, empty states, device variations, plural categories a language does
/// not use, substitutions without `argNum` or formatting a `Double`, `shouldTranslate: false`,
/// fields a later Xcode may add, a key written twice, a Korean-source file, versions 1.0 to 1.3,
/// and an empty `strings`.
struct XcodeCatalogTests {
  static func catalog() throws -> StringCatalog {
    try StringCatalog(directory: LocalizationFixtures.url("Xcode"))
  }

  @Test func everyFileLoadsWithOnlyTheRepeatedKeyAsAWarning() throws {
    let catalog = try Self.catalog()
    #expect(catalog.files == ["Empty.xcstrings", "KoreanSource.xcstrings", "Shapes.xcstrings"])
    #expect(catalog.sourceLanguage == "en")
    #expect(catalog.languages == ["en", "ko"])
    #expect(
      catalog.loadIssues == [
        LocalizationIssue(
          severity: .warning, language: nil, key: nil,
          problem: .duplicateJSONKey(
            file: "Shapes.xcstrings", key: "ko", line: 274, column: 9, droppedLine: 268))
      ])
  }

  @Test(
    arguments: [
      ("50% off", "en", [], "50% off"),
      ("50% off", "ko", [], "50% off"),
      ("Measurement unit: %", "en", [], "Measurement unit: %"),
      ("Measurement unit: %", "ko", [], "측정 단위: %"),
      ("%lld items", "en", [3], "3 items"),
      ("%lld items", "ko", [3], "3개"),
      ("price", "en", [1234.5], "1234.50 USD"),
      ("price", "ko", [1234.5], "1,234달러"),
      (
        "specifiers", "en",
        [
          1.26, "ab", 5, 1_234_567, 255, 255, 8, 65, 12345.678, 0.0001, 1.0, -42, 300, 7, 9, 1.5,
          2.5,
        ],
        "[  1.3] [ab    ] [+5] [1,234,567] [ff] [0XFF] [10] [A] [1.234568e+04] [0.0001] [0x1p+0] "
          + "[-0042] [300] [7] [9] [1.500000] [2.500000] [%]"
      ),
      ("positional", "en", [42, "kiwi", 6], "kiwi →    42"),
      ("positional", "ko", [42, "키위", -6], "키위 →42    |"),
      ("shortcut.phrases", "en", [], "Make juice"),
      ("shortcut.phrases", "ko", [], "쥬스 만들기"),
      ("button.title", "en", [], "Click"),
      ("button.title", "ko", [], "클릭"),
      ("tap.or.press", "en", [], "Press"),
      ("tap.or.press", "ko", [], "누르기"),
      ("apples", "en", [0], "No apples"),
      ("apples", "en", [1], "1 apple"),
      ("apples", "en", [2], "2 apples"),
      ("apples", "ko", [1], "사과 1개"),
      ("cups", "en", ["Kiwi", 1, 2], "Kiwi has 1 cup and 2 glasses"),
      ("cups", "ko", ["키위", 1, 2], "키위에게 컵 1개와 잔 2개"),
      ("distance", "en", [1.0], "1.0 kilometer to go"),
      ("distance", "en", [2.5], "2.5 kilometers to go"),
      ("distance", "ko", [2.5], "2.5킬로미터 남음"),
      ("app.name", "ko", [], "JuiceMaker"),
      ("state.empty", "ko", [], "신선해요"),
      ("future.fields", "en", [], "Later"),
      ("greeting", "ko", [], "안녕하세요"),
      ("welcome", "en", ["Kim"], "Welcome, Kim"),
      ("welcome", "ko", ["김"], "김님, 어서 오세요"),
      ("korean.only", "en", [], "한국어만"),
    ] as [(String, String, [LocalizedArgument], String)])
  func everyKeyRendersInEveryLanguageWithoutAMarker(
    key: String, language: String, arguments: [LocalizedArgument], expected: String
  ) throws {
    let text = try Self.catalog().localizer(for: language).rendering(key, arguments: arguments)
    #expect(text.value == expected)
    #expect(text.warnings == [])
  }

  @Test func validationFindsNoErrorAndTheWarningsTheRulesGive() throws {
    let issues = try Self.catalog().validationIssues()
    #expect(issues.filter { $0.severity == .error } == [])
    let expected: Set<LocalizationIssue> = [
      LocalizationIssue(
        severity: .warning, language: "ko", key: "apples",
        problem: .unusedPluralCategory("one", substitution: nil)),
      LocalizationIssue(
        severity: .warning, language: "en", key: "price",
        problem: .notTranslated(state: nil, branch: nil)),
      LocalizationIssue(
        severity: .warning, language: "ko", key: "50% off", problem: .missingString),
    ]
    #expect(expected.isSubset(of: Set(issues)))
    // An English `zero` branch keeps its meaning and is not reported.
    #expect(!issues.contains { $0.key == "apples" && $0.language == "en" })
    // A key that is its own source text, and one not to translate, miss nothing in English.
    #expect(!issues.contains { $0.key == "%lld items" && $0.language == "en" })
    #expect(!issues.contains { $0.key == "app.name" })
  }

  @Test(arguments: ["1.0", "1.1", "1.2", "1.3", "1.4", "2.0"])
  func versionsXcodeWroteLoadQuietlyAndLaterOnesWithAWarning(version: String) throws {
    let catalog = try LocalizationFixtures.catalog(
      json: #"{"sourceLanguage" : "en", "strings" : {}, "version" : "\#(version)"}"#)
    let known = ["1.0", "1.1", "1.2", "1.3"].contains(version)
    #expect(
      catalog.loadIssues
        == (known
          ? []
          : [
            LocalizationIssue(
              severity: .warning, language: nil, key: nil,
              problem: .unknownVersion(file: "Inline.xcstrings", version: version))
          ]))
  }

  @Test func catalogsLoadFromDataWithDisplayNames() throws {
    let directory = LocalizationFixtures.url("Xcode")
    let contents = try ["Shapes.xcstrings", "KoreanSource.xcstrings"].map { name in
      (name: "embedded/" + name, data: try Data(contentsOf: directory.appendingPathComponent(name)))
    }
    let catalog = try StringCatalog(sources: contents)
    #expect(catalog.file(definingKey: "welcome") == "embedded/KoreanSource.xcstrings")
    #expect(catalog.localizer(for: "en").string("welcome", "Kim") == "Welcome, Kim")
  }

  @Test func packsStayStrictWhileCatalogsKeepTheLastCopy() throws {
    let document = Array(
      """
      {"a": 1,
        "a": 2}
      """.utf8)
    #expect(
      throws: JSONParser.Failure(
        reason: #"the key "a" appears twice in one object"#, line: 2, column: 3)
    ) { try JSONParser.parse(document) }
    let (root, duplicates) = try JSONParser.parseKeepingLastDuplicate(document)
    #expect(duplicates == [.init(key: "a", line: 2, column: 3, droppedLine: 1)])
    guard case .object(let members) = root.value, members.count == 1,
      case .number("2") = members[0].node.value
    else {
      Issue.record("expected {\"a\": 2}, got \(root.value)")
      return
    }
  }
}
