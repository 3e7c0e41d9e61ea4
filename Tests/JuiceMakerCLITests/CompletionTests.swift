import Foundation
import Testing

/// `juice-maker completions bash|zsh|fish`, installed in real shells: commands and options
/// from the command definitions, names and languages asked of the binary at each completion,
/// so a pack added after the script was installed completes at once.
struct CompletionTests {
  @Test(arguments: CompletingShell.Kind.allCases)
  func commandsComplete(shell: CompletingShell.Kind) async throws {
    let sandbox = try Sandbox()
    let completing = try await CompletingShell(shell, in: sandbox)
    #expect(try await completing.completions(of: "juice-maker or") == ["order"])
    #expect(try await completing.completions(of: "juice-maker stock re") == ["remove"])
    #expect(try await completing.completions(of: "juice-maker completions f") == ["fish"])
  }

  @Test(arguments: CompletingShell.Kind.allCases)
  func optionsOfTheCommandComplete(shell: CompletingShell.Kind) async throws {
    let sandbox = try Sandbox()
    let completing = try await CompletingShell(shell, in: sandbox)
    #expect(try await completing.completions(of: "juice-maker order --co") == ["--count"])
    #expect(try await completing.completions(of: "juice-maker history --li") == ["--limit"])
    #expect(try await completing.completions(of: "juice-maker --reci") == ["--recipes"])
  }

  /// The point of asking the binary: the script was installed before the packs existed.
  @Test(arguments: CompletingShell.Kind.allCases)
  func aPackAddedAfterTheScriptCompletesAtOnce(shell: CompletingShell.Kind) async throws {
    let sandbox = try Sandbox()
    let completing = try await CompletingShell(shell, in: sandbox)
    #expect(try await completing.completions(of: "juice-maker order dra") == [])

    let user = sandbox.directory.appending(path: ".config/juice-maker/recipes")
    try CompletionCandidatesTests.writePack(juice: "dragon-juice", into: user)
    #expect(try await completing.completions(of: "juice-maker order dra") == ["dragon-juice"])

    let given = sandbox.directory.appending(path: "packs")
    try CompletionCandidatesTests.writePack(juice: "passion-juice", into: given)
    #expect(
      try await completing.completions(of: "juice-maker order --recipes \(given.path) pas") == [
        "passion-juice"
      ])
    #expect(
      try await completing.completions(of: "juice-maker --recipes=\(given.path) order pas") == [
        "passion-juice"
      ])
    #expect(
      try await completing.completions(
        of: "juice-maker order pas", environment: ["JUICE_MAKER_RECIPES": given.path])
        == ["passion-juice"])
  }

  @Test(arguments: CompletingShell.Kind.allCases)
  func namesAndLanguagesFollowTheLine(shell: CompletingShell.Kind) async throws {
    let sandbox = try Sandbox()
    let completing = try await CompletingShell(shell, in: sandbox)
    #expect(
      try await Set(completing.completions(of: "juice-maker --lang ko order 딸"))
        == ["딸기쥬스", "딸바쥬스"])
    #expect(
      try await completing.completions(of: "juice-maker --lang ko stock add 딸") == ["딸기"])
    #expect(
      try await completing.completions(
        of: "juice-maker order 딸", environment: ["JUICE_MAKER_LANG": "ko"]
      )
      .sorted() == ["딸기쥬스", "딸바쥬스"])
    #expect(
      try await completing.completions(of: "juice-maker order mango-k") == ["mango-kiwi-juice"])
    #expect(try await Set(completing.completions(of: "juice-maker --lang ")) == ["en", "ko"])
  }

  @Test func bashQuotesNamesWithSpacesAndReadsTypedBackslashes() async throws {
    let sandbox = try Sandbox()
    let bash = try await CompletingShell(.bash, in: sandbox)
    #expect(
      try await bash.completions(of: "juice-maker --lang en order Strawberry") == [
        "Strawberry\\ Juice", "Strawberry\\ Banana\\ Juice",
      ])
    #expect(
      try await bash.completions(of: "juice-maker --lang en order Strawberry\\ B") == [
        "Strawberry\\ Banana\\ Juice"
      ])
  }

  @Test(arguments: CompletingShell.Kind.allCases)
  func aPackNameIsDataToTheShellNeverCode(shell: CompletingShell.Kind) async throws {
    let sandbox = try Sandbox()
    let completing = try await CompletingShell(shell, in: sandbox)
    let recipes = sandbox.directory.appending(path: "recipes")
    let localization = sandbox.directory.appending(path: "localization")
    for directory in [recipes, localization] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    try Data(
      #"{ "juices": [{ "id": "evil-juice", "ingredients": [{ "fruit": "kiwi", "count": 1 }] }] }"#
        .utf8
    ).write(to: recipes.appending(path: "evil.json"))
    let name = "$(touch pwned)'`touch pwned`;touch pwned"
    try Data(
      #"""
      { "sourceLanguage": "en", "version": "1.0", "strings": {
        "juice.evil-juice": { "localizations": {
          "en": { "stringUnit": { "state": "translated", "value": "\#(name)" } } } } } }
      """#.utf8
    ).write(to: localization.appending(path: "Evil.xcstrings"))
    let completions = try await completing.completions(
      of: "juice-maker --recipes \(recipes.path) --localization \(localization.path) order ")
    // bash inserts a reply as it is, so it is quoted; zsh and fish quote what they insert.
    let offered = shell == .bash ? #"\$\(touch\ pwned\)\'\`touch\ pwned\`\;touch\ pwned"# : name
    #expect(completions.contains(offered), "\(completions)")
    #expect(completions.contains("evil-juice"), "\(completions)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("pwned")))
    #expect(!FileManager.default.fileExists(atPath: Paths.root.appending(path: "pwned").path))
  }

  @Test func anUnknownShellIsAUsageError() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "completions", "tcsh"])
    #expect(outcome.status == 64, "\(outcome)")
  }

  @Test func theScriptsCarryNoNames() async throws {
    let sandbox = try Sandbox()
    for shell in CompletingShell.Kind.allCases {
      let outcome = try await sandbox.run(["--lang", "ko", "completions", shell.rawValue])
      #expect(outcome.status == 0, "\(outcome)")
      for name in ["mango-kiwi-juice", "딸바쥬스", "strawberry"] {
        #expect(!outcome.stdout.contains(name), "\(shell): \(name)")
      }
    }
  }
}
