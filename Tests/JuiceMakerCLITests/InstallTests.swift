import Foundation
import Testing

/// The binary alone, copied anywhere, runs with the data built into it; the user's packs and
/// catalogs layer over that data.
struct InstallTests {
  /// The built `juice-maker` copied alone into an empty directory of the sandbox.
  private func installedCopy(in sandbox: Sandbox) throws -> URL {
    let binary = try #require(Paths.binary, "juice-maker is not built")
    let bin = sandbox.directory.appending(path: "bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let copy = bin.appending(path: "juice-maker")
    // Written through a descriptor that closes on exec: a copy still open for writing in a
    // process another test spawns meanwhile could not be run ("Text file busy").
    let contents = try Data(contentsOf: binary)
    let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    try #require(descriptor >= 0, "cannot create \(copy.path): errno \(errno)")
    var written = 0
    while written < contents.count {
      let count = contents.withUnsafeBytes { bytes in
        write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
      }
      guard count > 0 else { break }
      written += count
    }
    #expect(close(descriptor) == 0)
    try #require(written == contents.count, "cannot write \(copy.path): errno \(errno)")
    return copy
  }

  /// An empty directory of the sandbox to run from.
  private func emptyDirectory(in sandbox: Sandbox) throws -> URL {
    let directory = sandbox.directory.appending(path: "elsewhere")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test func theBinaryAloneRunsFromAnEmptyDirectory() async throws {
    let sandbox = try Sandbox()
    let binary = try installedCopy(in: sandbox)
    let elsewhere = try emptyDirectory(in: sandbox)
    func run(_ arguments: [String], input: String? = nil) async throws -> Outcome {
      try await sandbox.run(
        arguments, input: input, binary: binary, workingDirectory: elsewhere)
    }
    let help = try await run(["--help"])
    #expect(help.status == 0, "\(help)")
    #expect(help.lines.first == "juice-maker — a juice shop on the command line.", "\(help)")
    let koreanHelp = try await run(["--lang", "ko", "--help"])
    #expect(koreanHelp.lines.first == "juice-maker — 명령줄에서 여는 쥬스 가게.", "\(koreanHelp)")
    let version = try await run(["--version"])
    #expect(version.status == 0, "\(version)")
    #expect(version.lines.first == "juice-maker 1.0.0", "\(version)")
    let versionDocument = try await run(["--version", "--json"]).json()
    let data = try #require(versionDocument["data"] as? String)
    #expect(version.lines.last == "built-in data " + data)
    let menu = try await run(["--json", "menu"])
    #expect(try menu.json().objects("juices").count == 7, "\(menu)")
    let order = try await run(["--lang", "ko", "order", "딸바쥬스"])
    #expect(order.status == 0, "\(order)")
    #expect(order.stdout == "딸바쥬스 나왔습니다! 맛있게 드세요!\n", "\(order)")
    let shop = try await run(["--lang", "ko", "shop"], input: "2\nq\n")
    #expect(shop.status == 0, "\(shop)")
    #expect(shop.stdout.contains("바나나쥬스 나왔습니다!"), "\(shop)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
  }

  @Test func aPackInTheUserConfigurationDirectoryJoinsTheMenu() async throws {
    let sandbox = try Sandbox()
    let binary = try installedCopy(in: sandbox)
    let elsewhere = try emptyDirectory(in: sandbox)
    let configuration = sandbox.directory.appending(path: "config/juice-maker")
    let recipes = configuration.appending(path: "recipes")
    let localization = configuration.appending(path: "localization")
    for directory in [recipes, localization] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    try Data(
      #"{ "juices": [{ "id": "melon-juice", "ingredients": [{ "fruit": "kiwi", "count": 1 }] }] }"#
        .utf8
    ).write(to: recipes.appending(path: "melon.json"))
    try Data(
      """
      { "sourceLanguage": "en", "version": "1.0", "strings": {
        "juice.melon-juice": { "localizations": {
          "en": { "stringUnit": { "state": "translated", "value": "Melon Juice" } },
          "ko": { "stringUnit": { "state": "translated", "value": "멜론쥬스" } } } } } }
      """.utf8
    ).write(to: localization.appending(path: "Melon.xcstrings"))
    let environment = ["XDG_CONFIG_HOME": sandbox.directory.appending(path: "config").path]
    let menu = try await sandbox.run(
      ["--lang", "ko", "menu"], environment: environment, binary: binary,
      workingDirectory: elsewhere)
    #expect(menu.status == 0, "\(menu)")
    #expect(menu.lines.count == 8, "\(menu)")
    #expect(menu.lines.last?.hasPrefix("멜론쥬스") == true, "\(menu)")
    // Under ~/.config when XDG_CONFIG_HOME is not set.
    let home = sandbox.directory.appending(path: ".config")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    try FileManager.default.moveItem(at: configuration, to: home.appending(path: "juice-maker"))
    let byHome = try await sandbox.run(
      ["order", "melon-juice"], binary: binary, workingDirectory: elsewhere)
    #expect(byHome.stdout == "Here is your Melon Juice. Enjoy!\n", "\(byHome)")
  }

  @Test func aPackOfTheSameNameReplacesTheBuiltInOne() async throws {
    let sandbox = try Sandbox()
    let recipes = sandbox.directory.appending(path: "recipes")
    try FileManager.default.createDirectory(at: recipes, withIntermediateDirectories: true)
    try Data(
      #"{ "juices": [{ "id": "kiwi-juice", "ingredients": [{ "fruit": "kiwi", "count": 1 }] }] }"#
        .utf8
    ).write(to: recipes.appending(path: "juices.json"))
    let menu = try await sandbox.run(["--recipes", recipes.path, "--json", "menu"])
    #expect(try menu.json().objects("juices").map { $0.string("id") } == ["kiwi-juice"])
  }
}
