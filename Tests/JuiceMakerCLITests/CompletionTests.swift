import Foundation
import Testing

/// `juice-maker completions bash|zsh|fish`: scripts made from the command definitions and the
/// current packs' names in the user's language.
struct CompletionTests {
  /// Sources the bash script, completes the words given (the last is the one being typed),
  /// and returns COMPREPLY.
  private func bashCompletions(
    _ words: [String], script: String, sandbox: Sandbox
  ) throws -> [String] {
    let file = sandbox.directory.appending(path: "juice-maker.bash")
    try Data(script.utf8).write(to: file)
    let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      "-c",
      "source \"$1\"; COMP_WORDS=(juice-maker \(quoted)); COMP_CWORD=\(words.count); _juice_maker;"
        + " printf '%s\\n' \"${COMPREPLY[@]}\"",
      "bash", file.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndKoreanNames() async throws {
    let sandbox = try Sandbox()
    let korean = try await sandbox.run(["--lang", "ko", "completions", "bash"])
    #expect(korean.status == 0, "\(korean)")
    let script = korean.stdout
    #expect(try bashCompletions(["or"], script: script, sandbox: sandbox) == ["order"])
    #expect(
      try bashCompletions(["order", "딸"], script: script, sandbox: sandbox) == ["딸기쥬스", "딸바쥬스"])
    #expect(
      try bashCompletions(["stock", "add", "딸"], script: script, sandbox: sandbox) == ["딸기"])
    #expect(
      try bashCompletions(["stock", "re"], script: script, sandbox: sandbox) == ["remove"])
    #expect(
      try bashCompletions(["order", "--co"], script: script, sandbox: sandbox) == ["--count"])
    #expect(try bashCompletions(["--lang", ""], script: script, sandbox: sandbox) == ["en", "ko"])
    #expect(
      try bashCompletions(["order", "mango-k"], script: script, sandbox: sandbox) == [
        "mango-kiwi-juice"
      ])
  }

  @Test func bashQuotesNamesWithSpacesInEnglish() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["--lang", "en", "completions", "bash"])
    let completions = try bashCompletions(
      ["order", "Strawberry"], script: english.stdout, sandbox: sandbox)
    #expect(completions == ["Strawberry\\ Juice", "Strawberry\\ Banana\\ Juice"])
  }

  @Test func aPackNameIsDataToTheShellNeverCode() async throws {
    let sandbox = try Sandbox()
    let recipes = sandbox.directory.appending(path: "recipes")
    let localization = sandbox.directory.appending(path: "localization")
    for directory in [recipes, localization] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    try Data(
      #"{ "juices": [{ "id": "evil-juice", "ingredients": [{ "fruit": "kiwi", "count": 1 }] }] }"#
        .utf8
    ).write(to: recipes.appending(path: "evil.json"))
    try Data(
      #"""
      { "sourceLanguage": "en", "version": "1.0", "strings": {
        "juice.evil-juice": { "localizations": {
          "en": { "stringUnit": { "state": "translated", "value": "$(touch pwned)'`touch pwned`" } } } } } }
      """#.utf8
    ).write(to: localization.appending(path: "Evil.xcstrings"))
    let outcome = try await sandbox.run(
      ["--recipes", recipes.path, "--localization", localization.path, "completions", "bash"])
    #expect(outcome.status == 0, "\(outcome)")
    let completions = try bashCompletions(["order", "$"], script: outcome.stdout, sandbox: sandbox)
    // Inserted quoted, so the shell reads back the name itself.
    #expect(completions == [#"\$\(touch\ pwned\)\'\`touch\ pwned\`"#])
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("pwned")))
    #expect(!FileManager.default.fileExists(atPath: Paths.root.appending(path: "pwned").path))
  }

  @Test(arguments: ["zsh", "fish"])
  func zshAndFishScriptsNameEveryCommandAndTheNames(shell: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "ko", "completions", shell])
    #expect(outcome.status == 0, "\(outcome)")
    let count = shell == "fish" ? "-l count" : "--count"
    for word in ["order", "stock", "packs", "completions", count, "딸바쥬스", "딸기"] {
      #expect(outcome.stdout.contains(word), "\(word)")
    }
  }

  @Test func anUnknownShellIsAUsageError() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "completions", "tcsh"])
    #expect(outcome.status == 64, "\(outcome)")
  }
}
