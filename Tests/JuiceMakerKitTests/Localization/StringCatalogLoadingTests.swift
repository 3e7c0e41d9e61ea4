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
      error?.problems
        == ["en", "ko"].map {
          .duplicateKey(
            key: "fruit.strawberry", language: $0, firstFile: "Berries.xcstrings",
            secondFile: "Localizable.xcstrings")
        })
    #expect(
      error?.problems.first?.description
        == #"Localizable.xcstrings: key "fruit.strawberry" is already defined in "#
        + #"Berries.xcstrings for language "en""#)
  }

  @Test func aFileOfOneLanguageAddsItToKeysOtherFilesDefine() throws {
    let catalog = try StringCatalog(sources: [
      ("Localizable.xcstrings", Data(Self.english.utf8)),
      ("Japanese.xcstrings", Data(Self.japanese.utf8)),
    ])
    #expect(catalog.languages == ["en", "ja"])
    #expect(catalog.file(definingKey: "fruit.kiwi") == "Localizable.xcstrings")
    #expect(catalog.comment(forKey: "fruit.kiwi") == "A fruit")
    let japanese = catalog.localizer(for: "ja_JP.UTF-8")
    #expect(japanese.fallbackWarning == nil)
    #expect(japanese.string("fruit.kiwi") == "キウイ")
    // A key the Japanese file leaves out falls back to English, key by key.
    #expect(japanese.string("fruit.mango", count: 2) == "mangoes")
    #expect(catalog.localizer(for: "en").string("fruit.kiwi", count: 2) == "kiwis")
    #expect(catalog.validationIssues().filter { $0.severity == .error } == [])
  }

  @Test func twoFilesGivingAKeyOneLanguageIsAnErrorEvenBesideOthers() {
    let second = Self.japanese.replacingOccurrences(of: "キウイ", with: "キーウィ")
    let error = #expect(throws: LocalizationError.self) {
      try StringCatalog(sources: [
        ("Localizable.xcstrings", Data(Self.english.utf8)),
        ("Japanese.xcstrings", Data(Self.japanese.utf8)),
        ("More.xcstrings", Data(second.utf8)),
      ])
    }
    #expect(
      error
        == .duplicateKey(
          key: "fruit.kiwi", language: "ja", firstFile: "Japanese.xcstrings",
          secondFile: "More.xcstrings"))
  }

  @Test func aKeyWrittenWithTwoSpellingsOfALanguageInOneFileIsNoDuplicate() throws {
    let catalog = try LocalizationFixtures.catalog(
      json: """
        {"sourceLanguage": "en", "strings": {"k": {"localizations": {
          "ko-KR": {"stringUnit": {"state": "translated", "value": "하나"}},
          "ko_KR": {"stringUnit": {"state": "translated", "value": "둘"}}}}}}
        """)
    #expect(catalog.localizer(for: "ko-KR").string("k") == "하나")
  }

  static let english = """
    {"sourceLanguage": "en", "version": "1.0", "strings": {
      "fruit.kiwi": {"comment": "A fruit", "localizations": {"en": {"variations": {"plural": {
        "one": {"stringUnit": {"state": "translated", "value": "kiwi"}},
        "other": {"stringUnit": {"state": "translated", "value": "kiwis"}}}}}}},
      "fruit.mango": {"localizations": {"en": {"variations": {"plural": {
        "one": {"stringUnit": {"state": "translated", "value": "mango"}},
        "other": {"stringUnit": {"state": "translated", "value": "mangoes"}}}}}}}}}
    """

  static let japanese = """
    {"sourceLanguage": "en", "version": "1.0", "strings": {
      "fruit.kiwi": {"localizations": {"ja": {"stringUnit": {"state": "translated", "value": "キウイ"}}}}}}
    """

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

  /// The reasons read as the pack decoder's, with the JSON path, line, and column.
  @Test(
    arguments: [
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringUnit": {"value": 1}}}}}}"#,
        #"strings.k.localizations.en.stringUnit.value"#, 1, 93,
        "expected a string, found the number 1"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringUnit": {"state": "new"}}}}}}"#,
        #"strings.k.localizations.en.stringUnit.value"#, 1, 83, #"missing required field "value""#
      ),
      (#"{"sourceLanguage": null}"#, "sourceLanguage", 1, 20, "expected a string, found null"),
      (#"{"strings": {}}"#, "sourceLanguage", 1, 1, #"missing required field "sourceLanguage""#),
      (#"[]"#, "(top level)", 1, 1, "expected an object, found an array"),
      (
        #"{"sourceLanguage": "en", "strings": {"fruit.kiwi": null}}"#, #"strings["fruit.kiwi"]"#,
        1, 52, "expected an object, found null"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"shouldTranslate": "no"}}}"#,
        "strings.k.shouldTranslate", 1, 63, "expected true or false, found a string"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"ko-KR": {"variations": {"plural": []}}}}}}"#,
        #"strings.k.localizations["ko-KR"].variations.plural"#, 1, 97,
        "expected an object, found an array"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"substitutions": {"n": {"argNum": true}}}}}}}"#,
        "strings.k.localizations.en.substitutions.n.argNum", 1, 103,
        "expected a whole number, found true"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"substitutions": {"n": {"argNum": 1.5}}}}}}}"#,
        "strings.k.localizations.en.substitutions.n.argNum", 1, 103, "1.5 is not a whole number"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"substitutions": {"n": {"argNum": 2.0}}}}}}}"#,
        "strings.k.localizations.en.substitutions.n.argNum", 1, 103, "2.0 is not a whole number"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"substitutions": {"n": {"argNum": 99999999999999999999}}}}}}}"#,
        "strings.k.localizations.en.substitutions.n.argNum", 1, 103,
        "99999999999999999999 is too large"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"404": {"comment": false}}}"#,
        #"strings["404"].comment"#, 1, 57, "expected a string, found false"
      ),
      (
        #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringSet": {"values": ["a", 2]}}}}}}"#,
        #"strings.k.localizations.en.stringSet.values["1"]"#, 1, 99,
        "expected a string, found the number 2"
      ),
    ] as [(String, String, Int, Int, String)])
  func wrongTypesAndMissingFieldsNameTheFieldAndTheReason(
    json: String, path: String, line: Int, column: Int, reason: String
  ) {
    #expect(
      throws: LocalizationError.invalidStructure(
        file: "Inline.xcstrings", path: path, line: line, column: column, reason: reason)
    ) {
      try LocalizationFixtures.catalog(json: json)
    }
  }

  /// Fields are read in the order of the model and the members of `strings` and the like in
  /// written order, so the same file always reports the same problem.
  @Test func theProblemReportedDoesNotVaryFromRunToRun() {
    let json = """
      {"sourceLanguage": "en", "strings": {
        "zebra": {"comment": 1},
        "apple": {"comment": 2}
      }, "version": 3}
      """
    #expect(
      throws: LocalizationError.invalidStructure(
        file: "Inline.xcstrings", path: "version", line: 4, column: 15,
        reason: "expected a string, found the number 3")
    ) {
      try LocalizationFixtures.catalog(json: json)
    }
    #expect(
      throws: LocalizationError.invalidStructure(
        file: "Inline.xcstrings", path: "strings.zebra.comment", line: 2, column: 24,
        reason: "expected a string, found the number 1")
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

  @Test(arguments: ["2", "-0", "2 "])
  func argNumIsAWholeNumberWrittenAsOne(argNum: String) throws {
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
    #expect(english.string("k", "Kiwi", 3) == (argNum == "-0" ? "Kiwi ⟨%#@n@?⟩" : "Kiwi 3 cups"))
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
    guard case .invalidStructure(let reportedFile, let reportedPath, _, _, _) = error else {
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
      case .malformedJSON(let file, _), .invalidStructure(let file, _, _, _, _): file
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

  @Test func catalogFilesAreReadWithThePacksSizeCap() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("LocalizationTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let huge = directory.appendingPathComponent("Huge.xcstrings")
    #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: 16 << 20 + 1)
    try handle.close()
    let folder = directory.appendingPathComponent("Folder.xcstrings", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let error = #expect(throws: LocalizationError.self) {
      try StringCatalog(contentsOf: [huge, folder])
    }
    #expect(
      error?.problems == [
        .unreadableFile(file: "Huge.xcstrings", reason: "the file is larger than 16 MiB"),
        .unreadableFile(file: "Folder.xcstrings", reason: "not a regular file"),
      ])
  }

  @Test func eachFileFallsBackToItsOwnSourceLanguage() throws {
    let english = Data(
      #"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"en": {"stringUnit": {"value": "A"}}}}}}"#
        .utf8)
    let korean = Data(
      #"{"sourceLanguage": "ko", "strings": {"b": {"localizations": {"ko": {"stringUnit": {"value": "비"}}, "en": {"stringUnit": {"value": "B"}}}}, "c": {"localizations": {"ko": {"stringUnit": {"value": "씨"}}}}}}"#
        .utf8)
    let catalog = try StringCatalog(sources: [("A.xcstrings", english), ("B.xcstrings", korean)])
    #expect(catalog.sourceLanguage == "en")
    #expect(catalog.languages == ["en", "ko"])
    // A language the catalog lacks starts from the catalog's source language, like no language.
    let french = catalog.localizer(for: "fr")
    #expect(french.string("a") == "A")
    #expect(french.string("b") == "B")
    #expect(french.string("c") == "씨")
    let inEnglish = catalog.localizer(for: "en")
    #expect(inEnglish.string("b") == "B")
    #expect(inEnglish.string("c") == "씨")
    #expect(catalog.localizer(for: "ko").string("a") == "A")
    #expect(catalog.localizer(for: nil).string("b") == "B")
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
