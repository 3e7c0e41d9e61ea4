import Foundation
import Testing

/// What the command definitions give every command: one parser, `--help`, JSON usage errors.
struct CommandModelTests {
  static let commands = [
    "init", "shop", "menu", "stock", "order", "history", "validate", "rush", "packs",
    "completions",
  ]

  @Test(arguments: commands)
  func everyCommandHasHelpInBothLanguages(command: String) async throws {
    let sandbox = try Sandbox()
    for (language, usage) in [("en", "Usage: juice-maker "), ("ko", "사용법: juice-maker ")] {
      let outcome = try await sandbox.run(["--lang", language, command, "--help"])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.lines.first?.hasPrefix(usage + command) == true, "\(outcome)")
      // No catalog key shows in place of a missing string.
      let key = #"(^|\s)(help|option|command)\.[a-z]"#
      #expect(!outcome.lines.contains { $0.range(of: key, options: .regularExpression) != nil })
    }
    let overview = try await sandbox.run(["--help"])
    #expect(overview.lines.contains { $0.hasPrefix("  " + command + " ") }, "\(overview)")
  }

  @Test func aRepeatedOptionIsAUsageError() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["order", "kiwi-juice", "--count", "3", "--count", "1"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains("--count 3") && outcome.stderr.contains("--count 1"))
    #expect(try await sandbox.stock() == freshStock)
    let json = try await sandbox.run(["--json", "--json", "menu"])
    #expect(try json.json().string("error") == "conflictingOptions", "\(json)")
  }

  @Test(
    arguments: [
      (["order", "kiwi-juice", "--count", "--json"], "missingValue"),
      (["--json", "shop"], "optionNotApplicable"),
      (["shop", "--json"], "optionNotApplicable"),
      (["--json", "frobnicate"], "unknownCommand"),
      (["--json", "order"], "missingArgument"),
      (["--json", "stock", "add", "kiwi"], "missingArgument"),
      (["--json", "menu", "extra"], "unexpectedArgument"),
      (["--json", "--bogus"], "unknownOption"),
      (["--json", "rush", "--threads", "--tasks"], "conflictingOptions"),
      (["--json", "menu", "--count", "2"], "optionNotApplicable"),
      (["--json=yes", "menu"], "unexpectedValue"),
      (["--json", "--shop", "   ", "menu"], "invalidShopName"),
    ] as [([String], String)])
  func everyUsageErrorIsAJSONDocumentUnderJSON(arguments: [String], code: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr == "", "\(outcome)")
    let document = try outcome.json()
    #expect(document.string("error") == code, "\(outcome)")
    #expect(document["ok"] as? Bool == false)
  }

  @Test func packsSaysWhereEachFileCameFrom() async throws {
    let sandbox = try Sandbox()
    let user = sandbox.directory.appending(path: "config/juice-maker/recipes")
    try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
    try Data(#"{ "fruits": [{ "id": "kiwi" }] }"#.utf8).write(
      to: user.appending(path: "tropical.json"))
    let given = sandbox.directory.appending(path: "given")
    try FileManager.default.createDirectory(at: given, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Paths.recipes.appending(path: "juices.json"), to: given.appending(path: "juices.json"))
    let environment = ["XDG_CONFIG_HOME": sandbox.directory.appending(path: "config").path]
    let outcome = try await sandbox.run(
      ["--recipes", given.path, "--json", "packs"], environment: environment)
    let packs = try outcome.json().objects("packs")
    #expect(packs.map { $0.string("name") } == ["fruits.json", "juices.json", "tropical.json"])
    #expect(packs.map { $0.string("layer") } == ["built-in", "given", "user"])
    #expect(packs[0].string("path") == "<built-in>/Recipes/fruits.json")
    #expect(packs[1].string("path") == given.appending(path: "juices.json").path)
    #expect(packs[1]["replaces"] as? [String] == ["built-in"])
    let catalogs = try outcome.json().objects("catalogs")
    #expect(
      catalogs.map { $0.string("name") }
        == ["CommandLine.xcstrings", "Kiosk.xcstrings", "Localizable.xcstrings"])
    #expect(catalogs.map { $0.string("layer") } == ["built-in", "built-in", "built-in"])
    let text = try await sandbox.run(
      ["--lang", "ko", "--recipes", given.path, "packs"], environment: environment)
    #expect(text.status == 0, "\(text)")
    #expect(text.lines.first == "레시피 팩:", "\(text)")
    #expect(text.stdout.contains("지정") && text.stdout.contains("내장 파일 대신"), "\(text)")
  }
}
