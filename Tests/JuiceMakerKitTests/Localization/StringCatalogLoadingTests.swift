import Foundation
import JuiceMakerKit
import Testing

struct StringCatalogLoadingTests {
  @Test func packCatalogIsMergedWithTheShippedOne() throws {
    let catalog = try StringCatalog(directory: LocalizationFixtures.url("Pack"))
    #expect(catalog.files == ["Localizable.xcstrings", "Tropical.xcstrings"])
    #expect(catalog.file(definingKey: "fruit.watermelon") == "Tropical.xcstrings")
    #expect(catalog.file(definingKey: "fruit.kiwi") == "Localizable.xcstrings")
    let english = catalog.localizer(for: "en")
    let korean = catalog.localizer(for: "ko")
    #expect(english.string("fruit.watermelon", count: 3) == "watermelons")
    #expect(korean.string("juice.watermelon-juice") == "수박쥬스")
    #expect(
      english.string("order.shortage", .string(english.string("fruit.coconut", count: 1)), 1)
        == "1 more coconut")
    #expect(
      korean.string("order.made", .string(korean.string("juice.watermelon-juice")))
        == "수박쥬스 나왔습니다! 맛있게 드세요!")
  }

  @Test func keyDefinedInTwoFilesIsAnErrorNamingBoth() {
    let error = #expect(throws: LocalizationError.self) {
      try StringCatalog(directory: LocalizationFixtures.url("Duplicate"))
    }
    #expect(
      error
        == .duplicateKey(
          key: "fruit.strawberry", firstFile: "Berries.xcstrings",
          secondFile: "Localizable.xcstrings"))
    let description = error?.description ?? ""
    #expect(description.contains("Berries.xcstrings"))
    #expect(description.contains("Localizable.xcstrings"))
    #expect(description.contains("fruit.strawberry"))
  }

  @Test func malformedJSONIsATypedErrorNamingTheFile() throws {
    let error = #expect(throws: LocalizationError.self) {
      try LocalizationFixtures.catalog("Broken/NotJSON.xcstrings")
    }
    guard case .malformedJSON(let file, let reason) = error else {
      Issue.record("expected malformedJSON, got \(String(describing: error))")
      return
    }
    #expect(file == "NotJSON.xcstrings")
    #expect(reason == "line 4, column 20: unexpected 'o'; expected a JSON value")
    #expect(error?.description.hasPrefix("NotJSON.xcstrings: not valid JSON") == true)
  }

  /// The reasons read as `JSONDecoder`'s did when it decoded catalogs, so messages translators
  /// have seen stay the same.
  @Test(arguments: [
    (
      #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringUnit": {"value": 1}}}}}}"#,
      #"strings.k.localizations.en.stringUnit.value"#,
      "Expected to decode String but found number instead."
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringUnit": {"state": "new"}}}}}}"#,
      #"strings.k.localizations.en.stringUnit.value"#, #"missing required field "value""#
    ),
    (
      #"{"sourceLanguage": null}"#, "sourceLanguage",
      "Cannot get value of type String -- found null value instead"
    ),
    (#"{"strings": {}}"#, "sourceLanguage", #"missing required field "sourceLanguage""#),
    (
      #"[]"#, "(top level)",
      "Expected to decode Dictionary<String, Any> but found an array instead."
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"fruit.kiwi": null}}"#, #"strings["fruit.kiwi"]"#,
      "Cannot get keyed decoding container -- found null value instead"
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"k": {"shouldTranslate": "no"}}}"#,
      "strings.k.shouldTranslate", "Expected to decode Bool but found a string instead."
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"ko-KR": {"variations": {"plural": []}}}}}}"#,
      #"strings.k.localizations["ko-KR"].variations.plural"#,
      "Expected to decode Dictionary<String, Any> but found an array instead."
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"substitutions": {"n": {"argNum": true}}}}}}}"#,
      "strings.k.localizations.en.substitutions.n.argNum",
      "Expected to decode Int but found bool instead."
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"substitutions": {"n": {"argNum": 1.5}}}}}}}"#,
      "strings.k.localizations.en.substitutions.n.argNum",
      "Parsed JSON number <1.5> does not fit in Int."
    ),
    (
      #"{"sourceLanguage": "en", "strings": {"404": {"comment": false}}}"#,
      #"strings["404"].comment"#, "Expected to decode String but found bool instead."
    ),
  ])
  func wrongTypesAndMissingFieldsNameTheFieldAndTheReason(
    json: String, path: String, reason: String
  ) {
    #expect(
      throws: LocalizationError.invalidStructure(
        file: "Inline.xcstrings", path: path, reason: reason)
    ) {
      try LocalizationFixtures.catalog(json: json)
    }
  }

  /// Fields are read in the order of the model and the members of `strings` and the like in
  /// written order, so the same file always reports the same problem. (`JSONDecoder` went
  /// through those members in hash order, which changed from run to run.)
  @Test func theProblemReportedDoesNotVaryFromRunToRun() {
    let json = """
      {"sourceLanguage": "en", "strings": {
        "zebra": {"comment": 1},
        "apple": {"comment": 2}
      }, "version": 3}
      """
    #expect(
      throws: LocalizationError.invalidStructure(
        file: "Inline.xcstrings", path: "version",
        reason: "Expected to decode String but found number instead.")
    ) {
      try LocalizationFixtures.catalog(json: json)
    }
    #expect(
      throws: LocalizationError.invalidStructure(
        file: "Inline.xcstrings", path: "strings.zebra.comment",
        reason: "Expected to decode String but found number instead.")
    ) {
      try LocalizationFixtures.catalog(
        json: json.replacingOccurrences(of: "\"version\": 3", with: "\"version\": \"1.0\""))
    }
  }

  @Test func nullFieldsAndUnknownFieldsAreIgnored() throws {
    let catalog = try LocalizationFixtures.catalog(
      json: """
        {"sourceLanguage": "en", "version": null, "strings": {
          "k": {"comment": null, "shouldTranslate": null, "extractionState": null, "future": [1],
            "localizations": {"en": {"stringUnit": {"state": null, "value": "Hi"},
              "variations": null, "substitutions": null}}},
          "empty": {"localizations": null},
          "bare": {}
        }}
        """)
    #expect(catalog.keys == ["bare", "empty", "k"])
    #expect(catalog.localizer(for: "en").string("k") == "Hi")
    #expect(catalog.comment(forKey: "k") == nil)
  }

  @Test(arguments: ["2", "2.0", "2e0", "0.2e1"])
  func argNumIsAWholeNumberInAnySpelling(argNum: String) throws {
    let json = """
      {"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {
        "stringUnit": {"value": "%@ %#@n@"},
        "substitutions": {"n": {"argNum": \(argNum), "variations": {"plural": {
          "one": {"stringUnit": {"value": "%arg cup"}},
          "other": {"stringUnit": {"value": "%arg cups"}}
        }}}}
      }}}}}
      """
    let english = try LocalizationFixtures.catalog(json: json).localizer(for: "en")
    #expect(english.string("k", "Kiwi", 3) == "Kiwi 3 cups")
  }

  @Test(arguments: [
    ("WrongValueType.xcstrings", #"strings["fruit.kiwi"].localizations.en.stringUnit.value"#),
    ("MissingSourceLanguage.xcstrings", "sourceLanguage"),
    ("StringsIsAnArray.xcstrings", "strings"),
    (
      "ArgNumIsText.xcstrings",
      #"strings["order.made.many"].localizations.en.substitutions.cups.argNum"#
    ),
  ])
  func wrongTypesAreTypedErrorsNamingTheFileAndField(file: String, path: String) {
    let error = #expect(throws: LocalizationError.self) {
      try LocalizationFixtures.catalog("Broken/" + file)
    }
    guard case .invalidStructure(let reportedFile, let reportedPath, _) = error else {
      Issue.record("expected invalidStructure, got \(String(describing: error))")
      return
    }
    #expect(reportedFile == file)
    #expect(reportedPath == path)
    #expect(error?.description.contains(file) == true)
  }

  @Test func everyBrokenFileIsReportedInOnePass() {
    let error = #expect(throws: LocalizationError.self) {
      try StringCatalog(directory: LocalizationFixtures.url("Broken"))
    }
    let files = error?.problems.compactMap { problem -> String? in
      switch problem {
      case .malformedJSON(let file, _), .invalidStructure(let file, _, _): file
      default: nil
      }
    }
    #expect(
      files == [
        "ArgNumIsText.xcstrings", "MissingSourceLanguage.xcstrings", "NotJSON.xcstrings",
        "StringsIsAnArray.xcstrings", "WrongValueType.xcstrings",
      ])
  }

  @Test func directoryWithoutCatalogsIsAnError() {
    let directory = LocalizationFixtures.url("Empty")
    #expect(throws: LocalizationError.noCatalogFiles(location: directory.path)) {
      try StringCatalog(directory: directory)
    }
  }

  @Test func missingDirectoryIsAnError() {
    let error = #expect(throws: LocalizationError.self) {
      try StringCatalog(directory: LocalizationFixtures.url("NoSuchDirectory"))
    }
    guard case .unreadableDirectory(let path, _) = error else {
      Issue.record("expected unreadableDirectory, got \(String(describing: error))")
      return
    }
    #expect(path.hasSuffix("NoSuchDirectory"))
  }

  @Test func missingFileIsAnErrorNamingIt() {
    let error = #expect(throws: LocalizationError.self) {
      try LocalizationFixtures.catalog("Nowhere.xcstrings")
    }
    guard case .unreadableFile(let file, _) = error else {
      Issue.record("expected unreadableFile, got \(String(describing: error))")
      return
    }
    #expect(file == "Nowhere.xcstrings")
  }

  @Test func filesWithDifferentSourceLanguagesAreAnError() throws {
    let english = Data(#"{"sourceLanguage": "en", "strings": {}}"#.utf8)
    let korean = Data(#"{"sourceLanguage": "ko", "strings": {}}"#.utf8)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("LocalizationTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try english.write(to: directory.appendingPathComponent("A.xcstrings"))
    try korean.write(to: directory.appendingPathComponent("B.xcstrings"))
    #expect(
      throws: LocalizationError.sourceLanguageMismatch(
        file: "B.xcstrings", expected: "en", found: "ko")
    ) {
      try StringCatalog(directory: directory)
    }
  }

  @Test func decodingToleratesWhatXcodeAndTranslatorsLeave() throws {
    let catalog = try LocalizationFixtures.catalog("Tolerant.xcstrings")
    let english = catalog.localizer(for: "en")
    let korean = catalog.localizer(for: "ko")
    #expect(english.string("state.new") == "New text")
    #expect(korean.string("state.new") == "새 글")
    #expect(korean.string("state.stale") == "옛 글")
    #expect(english.string("no.localizations") == "no.localizations")
    #expect(korean.string("variations.only", 4) == "4잔")
    #expect(catalog.comment(forKey: "no.localizations")?.hasPrefix("Xcode") == true)
  }

  @Test func singleCatalogLoadsFromData() throws {
    let catalog = try StringCatalog(
      data: Data(#"{"sourceLanguage": "en_US", "strings": {}}"#.utf8))
    #expect(catalog.sourceLanguage == "en-US")
    #expect(catalog.keys == [])
    #expect(catalog.files == ["Localizable.xcstrings"])
  }
}
