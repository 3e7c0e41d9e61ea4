import Foundation
import JuiceMakerKit
import Testing

/// Loading one language (`StringCatalog.Selection`) builds only what its localizer can show,
/// and shows every key exactly as a full load does; what it leaves out is still checked as
/// JSON, but only a full load checks it as catalog values.
struct StringCatalogSelectionTests {
  /// Every `.xcstrings` file of a directory, by name and contents, in file-name order.
  static func sources(_ directory: URL) throws -> [(name: String, data: Data)] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".xcstrings") }.sorted()
      .map { ($0, try Data(contentsOf: directory.appendingPathComponent($0))) }
  }

  static let directories = [
    LocalizationFixtures.shippedDirectory, LocalizationFixtures.url("Xcode"),
    LocalizationFixtures.url("Pack"), LocalizationFixtures.url("RealWorld"),
  ]

  @Test(arguments: directories, ["en", "ko", "ko_KR.UTF-8", "fr", nil] as [String?])
  func oneLanguageShowsEveryKeyAsAFullLoadDoes(directory: URL, language: String?) throws {
    let sources = try Self.sources(directory)
    let everything = try StringCatalog(sources: sources)
    let selected = try StringCatalog(sources: sources, selection: .language(language))
    #expect(selected.languages == everything.languages)
    #expect(selected.keys == everything.keys)
    #expect(selected.sourceLanguage == everything.sourceLanguage)
    let full = everything.localizer(for: language)
    let one = selected.localizer(for: language)
    #expect(one.language == full.language)
    #expect(one.fallbackWarning == full.fallbackWarning)
    for key in everything.keys {
      for count in [nil, 1, 2] as [Int?] {
        #expect(
          one.rendering(key, count: count).value == full.rendering(key, count: count).value,
          "\(key) \(String(describing: count))")
      }
    }
  }

  @Test func aValueInALanguageLeftOutIsCheckedAsJSONOnly() throws {
    let wrongType = Data(
      """
      { "sourceLanguage": "en", "strings": { "hello": { "localizations": {
        "en": { "stringUnit": { "state": "translated", "value": "Hello" } },
        "ja": 3 } } } }
      """.utf8)
    #expect(throws: LocalizationError.self) { try StringCatalog(data: wrongType) }
    let english = try StringCatalog(
      sources: [("Wrong.xcstrings", wrongType)], selection: .language("en"))
    #expect(english.localizer(for: "en").string("hello") == "Hello")
    #expect(english.languages == ["en", "ja"])
    #expect(throws: LocalizationError.self) {
      try StringCatalog(sources: [("Wrong.xcstrings", wrongType)], selection: .language("ja"))
    }

    let malformed = Data(
      """
      { "sourceLanguage": "en", "strings": { "hello": { "localizations": {
        "en": { "stringUnit": { "state": "translated", "value": "Hello" } },
        "ja": { "stringUnit": { "value": "こんにちは" "state": "new" } } } } } }
      """.utf8)
    let fullFailure = #expect(throws: LocalizationError.self) {
      try StringCatalog(sources: [("Malformed.xcstrings", malformed)])
    }
    let selectedFailure = #expect(throws: LocalizationError.self) {
      try StringCatalog(sources: [("Malformed.xcstrings", malformed)], selection: .language("en"))
    }
    #expect(selectedFailure == fullFailure)
  }

  @Test func theSourceLanguageIsBuiltWhereverTheFileNamesIt() throws {
    let sourceLast = Data(
      """
      { "strings": { "greeting": { "localizations": {
        "ko": { "stringUnit": { "state": "translated", "value": "안녕하세요" } } } } },
        "sourceLanguage": "ko" }
      """.utf8)
    let english = try StringCatalog(
      sources: [("SourceLast.xcstrings", sourceLast)], selection: .language("en"))
    #expect(english.localizer(for: "en").string("greeting") == "안녕하세요")
  }

  @Test func keysLeftOutAreNotLoaded() throws {
    let sources = try Self.sources(LocalizationFixtures.shippedDirectory)
    let catalog = try StringCatalog(
      sources: sources, selection: .language("ko", keys: ["version.data", "no.such.key"]))
    #expect(catalog.keys == ["version.data"])
    #expect(catalog.localizer(for: "ko").string("version.data", .string("1")) == "내장 데이터 1")

    let full = try StringCatalog(sources: sources)
    let withoutJuices = try StringCatalog(
      sources: sources, selection: .language("en", omittedPrefixes: ["juice."]))
    #expect(withoutJuices.keys == full.keys.filter { !$0.hasPrefix("juice.") })
    #expect(withoutJuices.localizer(for: "en").name(of: "kiwi-juice") == "kiwi-juice")
    #expect(withoutJuices.localizer(for: "en").name(of: "kiwi", count: 2) == "kiwis")
  }
}
