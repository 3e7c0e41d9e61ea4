import Foundation
import Testing

/// `juice-maker __complete KIND [WORD…]`, the hidden entry point the completion scripts call:
/// the candidates of the data the completed line would use, or nothing, never an error.
struct CompletionCandidatesTests {
  /// Writes a pack of one juice made of kiwi into a directory, creating it.
  static func writePack(juice: String, into directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(
      #"{ "juices": [{ "id": "\#(juice)", "ingredients": [{ "fruit": "kiwi", "count": 1 }] }] }"#
        .utf8
    ).write(to: directory.appending(path: juice + ".json"))
  }

  @Test func juicesAreIdsThenNamesInTheLinesLanguage() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["__complete", "juices", "--lang", "ko", "order"], useStore: false)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr.isEmpty, "\(outcome)")
    #expect(outcome.lines.first == "strawberry-juice", "\(outcome)")
    #expect(outcome.lines.contains("mango-kiwi-juice"), "\(outcome)")
    #expect(outcome.lines.last == "망키쥬스", "\(outcome)")
    #expect(Set(outcome.lines).count == outcome.lines.count, "\(outcome)")
  }

  @Test func fruitsAreIdsThenSingularAndPluralNames() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["__complete", "fruits", "--lang", "en", "stock", "add"], useStore: false)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.lines == [
        "strawberry", "banana", "pineapple", "kiwi", "mango", "strawberries", "bananas",
        "pineapples", "kiwis", "mangoes",
      ], "\(outcome)")
  }

  @Test func aPackInTheUsersDirectoryIsOfferedWithoutRegenerating() async throws {
    let sandbox = try Sandbox()
    try Self.writePack(
      juice: "dragon-juice", into: sandbox.directory.appending(path: ".config/juice-maker/recipes"))
    let outcome = try await sandbox.run(["__complete", "juices", "order"], useStore: false)
    #expect(outcome.lines.contains("dragon-juice"), "\(outcome)")
    #expect(outcome.lines.contains("kiwi-juice"), "\(outcome)")
  }

  /// The `--recipes` directory of the line, however it is quoted; `SANDBOX` stands for the
  /// sandbox's directory, which is also `HOME`.
  @Test(arguments: [
    ["order", "--recipes", "~/my\\ packs"],
    ["--recipes='SANDBOX/my packs'", "order"],
    ["--recipes", "\"SANDBOX\"/my' 'packs", "order"],
    ["--recipes", "\"$HOME/my packs\"", "order"],
  ])
  func theRecipesDirectoryOfTheLineIsRead(words: [String]) async throws {
    let sandbox = try Sandbox()
    try Self.writePack(juice: "dragon-juice", into: sandbox.directory.appending(path: "my packs"))
    let outcome = try await sandbox.run(
      ["__complete", "juices"]
        + words.map { $0.replacingOccurrences(of: "SANDBOX", with: sandbox.directory.path) },
      useStore: false)
    if words.contains(where: { $0.contains("$HOME") }) {
      // Variables are not expanded: that directory does not exist, so nothing is offered.
      #expect(outcome.stdout.isEmpty, "\(outcome)")
    } else {
      #expect(outcome.lines.contains("dragon-juice"), "\(outcome)")
    }
    #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome)")
  }

  @Test func theRecipesVariableIsRead() async throws {
    let sandbox = try Sandbox()
    let packs = sandbox.directory.appending(path: "packs")
    try Self.writePack(juice: "dragon-juice", into: packs)
    let outcome = try await sandbox.run(
      ["__complete", "juices", "order"], environment: ["JUICE_MAKER_RECIPES": packs.path],
      useStore: false)
    #expect(outcome.lines.contains("dragon-juice"), "\(outcome)")
  }

  @Test func languagesComeFromTheCatalogsOfTheLine() async throws {
    let sandbox = try Sandbox()
    let builtIn = try await sandbox.run(["__complete", "languages"], useStore: false)
    #expect(builtIn.lines == ["en", "ko"], "\(builtIn)")
    let localization = sandbox.directory.appending(path: "localization")
    try FileManager.default.createDirectory(at: localization, withIntermediateDirectories: true)
    try Data(
      #"""
      { "sourceLanguage": "en", "version": "1.0", "strings": {
        "juice.dragon-juice": { "localizations": {
          "ja": { "stringUnit": { "state": "translated", "value": "ドラゴンジュース" } } } } } }
      """#.utf8
    ).write(to: localization.appending(path: "Japanese.xcstrings"))
    let added = try await sandbox.run(
      ["__complete", "languages", "--localization", localization.path], useStore: false)
    #expect(added.lines == ["en", "ja", "ko"], "\(added)")
  }

  /// Whatever goes wrong, the entry point prints nothing, says nothing and succeeds, so a
  /// shell shows no noise in the middle of a line.
  @Test(arguments: [
    ["__complete"],
    ["__complete", "shops"],
    ["__complete", "juices", "--recipes", "/nonexistent/juice-maker-packs", "order"],
    ["__complete", "juices", "--recipes", "BROKEN", "order"],
    ["__complete", "languages", "--localization", "/nonexistent/juice-maker-catalogs"],
    ["__complete", "juices", "--shop", " ", "order"],
  ])
  func aProblemPrintsNothingAndSucceeds(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    let broken = sandbox.directory.appending(path: "broken")
    try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
    try Data("{ \"juices\": [".utf8).write(to: broken.appending(path: "broken.json"))
    let outcome = try await sandbox.run(
      arguments.map { $0 == "BROKEN" ? broken.path : $0 }, useStore: false)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.isEmpty, "\(outcome)")
    #expect(outcome.stderr.isEmpty, "\(outcome)")
  }

  @Test func anEmptyVariablePrintsNothingAndSucceeds() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["__complete", "juices", "order"], environment: ["JUICE_MAKER_RECIPES": ""],
      useStore: false)
    #expect(outcome.status == 0 && outcome.stdout.isEmpty && outcome.stderr.isEmpty, "\(outcome)")
  }

  @Test func theEntryPointIsNeitherListedNorACommand() async throws {
    let sandbox = try Sandbox()
    let help = try await sandbox.run(["--help"])
    #expect(help.status == 0, "\(help)")
    #expect(!help.stdout.contains(CompletionCandidatesTests.entryPoint), "\(help)")
    let completions = try await sandbox.run(["completions", "--help"])
    #expect(!completions.stdout.contains(CompletionCandidatesTests.entryPoint), "\(completions)")
    // Only the first argument selects it; elsewhere it is an unknown command.
    let later = try await sandbox.run(["--json", CompletionCandidatesTests.entryPoint, "juices"])
    #expect(later.status == 64, "\(later)")
  }

  static let entryPoint = "__complete"
}
