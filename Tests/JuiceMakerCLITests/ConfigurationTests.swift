import Foundation
import Testing

/// Where the data and the store come from: options, then environment variables, then the
/// defaults; `--version` and `--help`.
struct ConfigurationTests {
  @Test func recipesComeFromTheOptionThenTheEnvironmentThenTheBuiltInData() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.ambiguous(in: sandbox)
    let recipes = data[1]
    let localization = data[3]
    let viaOption = try await sandbox.run(
      ["--recipes", recipes, "--json", "menu"],
      environment: ["JUICE_MAKER_LOCALIZATION": localization])
    #expect(try viaOption.json().objects("juices").count == 9, "\(viaOption)")
    let viaEnvironment = try await sandbox.run(
      ["--json", "menu"],
      environment: ["JUICE_MAKER_RECIPES": recipes, "JUICE_MAKER_LOCALIZATION": localization])
    #expect(try viaEnvironment.json().objects("juices").count == 9, "\(viaEnvironment)")
    let optionFirst = try await sandbox.run(
      ["--recipes", Paths.recipes.path, "--json", "menu"],
      environment: ["JUICE_MAKER_RECIPES": recipes])
    #expect(try optionFirst.json().objects("juices").count == 7, "\(optionFirst)")
    let byDefault = try await sandbox.run(["--json", "menu"])
    #expect(try byDefault.json().objects("juices").count == 7, "\(byDefault)")
  }

  @Test func stringsComeFromTheOptionThenTheEnvironmentThenTheBuiltInData() async throws {
    let sandbox = try Sandbox()
    let broken = try Fixtures.brokenCatalog(in: sandbox)[3]
    let viaOption = try await sandbox.run(["--localization", broken, "menu"])
    #expect(viaOption.status == 65, "\(viaOption)")
    let viaEnvironment = try await sandbox.run(
      ["menu"], environment: ["JUICE_MAKER_LOCALIZATION": broken])
    #expect(viaEnvironment.status == 65, "\(viaEnvironment)")
    let optionFirst = try await sandbox.run(
      ["--localization", Paths.localization.path, "menu"],
      environment: ["JUICE_MAKER_LOCALIZATION": broken])
    #expect(optionFirst.status == 0, "\(optionFirst)")
  }

  @Test func storeComesFromTheOptionThenTheEnvironment() async throws {
    let sandbox = try Sandbox()
    let fromEnvironment = sandbox.path("env/store.sqlite")
    try await sandbox.initialize(fromEnvironment)
    let viaEnvironment = try await sandbox.run(
      ["order", "kiwi-juice"], environment: ["JUICE_MAKER_STORE": fromEnvironment],
      useStore: false)
    #expect(viaEnvironment.status == 0, "\(viaEnvironment)")
    #expect(FileManager.default.fileExists(atPath: fromEnvironment))
    let fromOption = sandbox.path("option.sqlite")
    try await sandbox.initialize(fromOption)
    let optionFirst = try await sandbox.run(
      ["--store", fromOption, "order", "mango-juice"],
      environment: ["JUICE_MAKER_STORE": fromEnvironment], useStore: false)
    #expect(optionFirst.status == 0, "\(optionFirst)")
    let environmentStock = try await sandbox.run(
      ["--json", "stock"], environment: ["JUICE_MAKER_STORE": fromEnvironment], useStore: false)
    #expect(
      try environmentStock.json().objects("fruits").map { $0.int("stock") } == [10, 10, 10, 7, 10])
    let optionStock = try await sandbox.run(
      ["--store", fromOption, "--json", "stock"], useStore: false)
    #expect(
      try optionStock.json().objects("fruits").map { $0.int("stock") } == [10, 10, 10, 10, 7])
  }

  @Test func storeDefaultsToTheXDGStateDirectory() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["order", "kiwi-juice"], useStore: false)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: sandbox.path("state/juice-maker/store.sqlite")))
    #expect(!FileManager.default.fileExists(atPath: sandbox.path(".local")))
  }

  @Test(arguments: [nil, "relative/state"] as [String?])
  func storeFallsBackToTheHomeDirectory(stateHome: String?) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["order", "kiwi-juice"], environment: ["XDG_STATE_HOME": stateHome], useStore: false)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      FileManager.default.fileExists(atPath: sandbox.path(".local/state/juice-maker/store.sqlite")))
    let again = try await sandbox.run(
      ["--json", "stock"], environment: ["XDG_STATE_HOME": stateHome], useStore: false)
    #expect(try again.json().objects("fruits").map { $0.int("stock") } == [10, 10, 10, 7, 10])
  }

  @Test func versionIsPrinted() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--version"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.lines.first == "juice-maker 1.0.0")
    #expect(outcome.lines.count == 2)
    #expect(outcome.lines.last?.hasPrefix("built-in data ") == true)
    #expect(outcome.stderr == "")
  }

  /// `--version` reads no pack and no catalog but the built-in ones, so neither a broken
  /// catalog nor a missing directory stops it; `menu` still fails on the same catalog.
  @Test func versionReadsNoPackAndNoGivenCatalog() async throws {
    let sandbox = try Sandbox()
    let broken = try Fixtures.brokenCatalog(in: sandbox)[3]
    let missing = sandbox.path("no-such-directory")
    let lines: [([String], [String: String])] = [
      (["--localization", broken, "--version"], [:]),
      (["--version", "--lang", "ko"], ["JUICE_MAKER_LOCALIZATION": broken]),
      (["--recipes", missing, "--localization", missing, "--json", "--version"], [:]),
    ]
    for (arguments, environment) in lines {
      let outcome = try await sandbox.run(arguments, environment: environment)
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.stderr == "", "\(outcome)")
    }
    let korean = try await sandbox.run(["--localization", broken, "--lang", "ko", "--version"])
    #expect(korean.lines.first == "juice-maker 1.0.0", "\(korean)")
    #expect(korean.lines.last?.hasPrefix("내장 데이터 ") == true, "\(korean)")
    let menu = try await sandbox.run(["--localization", broken, "menu"])
    #expect(menu.status == 65, "\(menu)")
  }

  @Test(
    arguments: [
      (["--help"], "juice-maker — a juice shop on the command line."),
      (["-h"], "juice-maker — a juice shop on the command line."),
      (["menu", "--help"], "Usage: juice-maker menu [options]"),
      (
        ["stock", "--help"],
        "Usage: juice-maker stock [add|remove|set|limits FRUIT N] [--if-stock M] [--min N] [--par M] [--low] [options]"
      ),
      (
        ["stock", "add", "--help"],
        "Usage: juice-maker stock [add|remove|set|limits FRUIT N] [--if-stock M] [--min N] [--par M] [--low] [options]"
      ),
      (
        ["order", "--help"],
        "Usage: juice-maker order JUICE [--count N] [--request-id ID] [options]"
      ),
      (["shop", "--help"], "Usage: juice-maker shop [--plain] [options]"),
      (
        ["history", "--help"],
        "Usage: juice-maker history [--limit N] [--since TIME] [--until TIME] [options]"
      ),
      (["validate", "--help"], "Usage: juice-maker validate [FILE…] [--catalog] [options]"),
    ] as [([String], String)])
  func everyCommandHasHelp(arguments: [String], firstLine: String) async throws {
    let sandbox = try Sandbox(.absent)
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.lines.first == firstLine)
    #expect(outcome.lines.count > 2)
    #expect(outcome.stderr == "")
    // Help reads no store.
    #expect(!FileManager.default.fileExists(atPath: sandbox.store))
  }

  @Test func mainHelpListsEveryCommandAndTheExitCodes() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--help"])
    for command in [
      "shop", "menu", "stock", "stock add FRUIT N", "order JUICE", "history", "validate",
    ] {
      #expect(outcome.lines.contains { $0.hasPrefix("  " + command + " ") }, "\(command)")
    }
    for option in [
      "--recipes DIR", "--localization DIR", "--store FILE", "--lang LANG", "--shop NAME", "--json",
      "--version",
    ] {
      #expect(outcome.lines.contains { $0.hasPrefix("  " + option) }, "\(option)")
    }
    #expect(
      outcome.lines.last
        == "Exit codes: 0 success, 1 refused for stock, 64 usage error, 65 invalid data, 74 I/O error."
    )
  }
}
