import Foundation
import TemporaryPostgres
import Testing

/// Menus published to the store, and running shops that take up a changed menu without a
/// restart: a published or retired pack, or an edited file of the user's layer. A broken
/// change leaves the running menu as it was, with a visible warning.
struct LiveMenuTests {
  static let grape = BrokenUserLayerTests.grape
  static let truncated = BrokenUserLayerTests.truncated
  /// The names `validate` requires of grape's pack, in both languages.
  static let grapeNames = #"""
    {"sourceLanguage": "en", "version": "1.0", "strings": {
      "fruit.grape": {"localizations": {
        "en": {"stringUnit": {"state": "translated", "value": "grape"}},
        "ko": {"stringUnit": {"state": "translated", "value": "포도"}}}},
      "juice.grape-juice": {"localizations": {
        "en": {"stringUnit": {"state": "translated", "value": "Grape Juice"}},
        "ko": {"stringUnit": {"state": "translated", "value": "포도쥬스"}}}}}}
    """#

  /// How long a change may take to show: the second a running shop has, with slack for a
  /// busy machine.
  static let live: Duration = .seconds(3)

  /// Writes a file of the user's pack directory, as an editor would.
  static func writeUserPack(_ sandbox: Sandbox, _ name: String, _ text: String) throws {
    let directory = sandbox.directory.appending(path: ".config/juice-maker/recipes")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: directory.appending(path: name), options: .atomic)
  }

  /// A pack file outside every layer, for `packs publish`.
  static func packFile(_ sandbox: Sandbox, _ name: String, _ text: String) throws -> String {
    let path = sandbox.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  // MARK: - The line shop

  @Test func anEditedUserPackIsSoldByARunningLineShopAndABrokenEditIsNot() async throws {
    let sandbox = try Sandbox()
    let shop = try RunningProgram(["--lang", "en", "shop"], in: sandbox)
    #expect(try await shop.wait { $0.stdout.contains("> ") })
    try Self.writeUserPack(sandbox, "grape.json", Self.grape)
    shop.send("grape-juice")
    #expect(
      try await shop.wait(timeout: Self.live) {
        $0.stdout.contains("Here is your grape-juice. Enjoy!")
      }, "\(shop.stdout)\n\(shop.stderr)")
    #expect(shop.stdout.contains("The menu changed."))
    // A typo in the file: the running menu stays, and the shop says why.
    try Self.writeUserPack(sandbox, "grape.json", Self.truncated)
    shop.send("grape-juice")
    #expect(
      try await shop.wait(timeout: Self.live) {
        $0.stdout.components(separatedBy: "Here is your grape-juice. Enjoy!").count == 3
      }, "\(shop.stdout)\n\(shop.stderr)")
    #expect(
      shop.stderr.contains("The changed menu has problems; still selling the last good one:"),
      "\(shop.stderr)")
    #expect(shop.stderr.contains("grape.json: malformed JSON"), "\(shop.stderr)")
    #expect(try await shop.finish() == 0)
    // A new fruit got its initial stock: 4, less two orders of 2.
    try Self.writeUserPack(sandbox, "grape.json", Self.grape)
    #expect(try await sandbox.stock()["grape"] == 0)
  }

  // MARK: - The full-screen shop

  @Test func anEditedUserPackAppearsOnTheFullScreenShopAndABrokenEditIsShown() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "en"], in: sandbox, width: 100, height: 30)
    try await pane.waitFor(text: "Fresh juice")
    try Self.writeUserPack(sandbox, "grape.json", Self.grape)
    let screen = try await pane.waitFor(text: "grape-juice", timeout: Self.live)
    #expect(screen.joined(separator: "\n").contains("grape 4"), "\(screen)")
    try Self.writeUserPack(sandbox, "grape.json", Self.truncated)
    let broken = try await pane.waitFor(
      text: "The changed menu has problems", timeout: Self.live)
    #expect(broken.contains { $0.contains("grape-juice") }, "the running menu stays: \(broken)")
    // Fixed again: the warning goes.
    try Self.writeUserPack(sandbox, "grape.json", Self.grape)
    try await pane.waitFor(noText: "The changed menu has problems", timeout: Self.live)
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }

  // MARK: - Publishing

  @Test func aPublishedPackIsSoldFromTheStoreAndARetiredOneIsNot() async throws {
    let sandbox = try Sandbox()
    let file = try Self.packFile(sandbox, "grape.json", Self.grape)
    let names = try Self.packFile(sandbox, "Grape.xcstrings", Self.grapeNames)
    // Without its names the pack would fail validation: nothing is published.
    let nameless = try await sandbox.run(["packs", "publish", file])
    #expect(nameless.status == 65, "\(nameless)")
    #expect(nameless.stderr.contains("juice.grape-juice: missing name"), "\(nameless)")
    let published = try await sandbox.run(["--shop", "hq", "packs", "publish", file, names])
    #expect(published.status == 0, "\(published)")
    #expect(published.stdout.contains("Published Grape.xcstrings"), "\(published)")
    #expect(published.stdout.contains("menu version 1."), "\(published)")
    let packs = try await sandbox.run(["packs"])
    #expect(packs.stdout.contains("<store>/grape.json"), "\(packs)")
    #expect(packs.stdout.contains("version 1, last changed by hq"), "\(packs)")
    let json = try await sandbox.run(["--json", "packs"])
    #expect(json.stdout.contains(#""layer":"store""#), "\(json)")
    #expect(json.stdout.contains(#""published":["Grape.xcstrings","grape.json"]"#), "\(json)")
    // validate checks the store's layer with the others.
    let validated = try await sandbox.run(["validate"])
    #expect(validated.stdout.contains("Checked 6 fruits, 8 juices"), "\(validated)")
    let order = try await sandbox.run(["--lang", "ko", "order", "포도쥬스"])
    #expect(order.status == 0, "\(order)")
    #expect(order.stdout.contains("포도쥬스 나왔습니다!"), "\(order)")
    #expect(try await sandbox.stock()["grape"] == 2)
    // A refusal names the published fruit by its published name.
    let short = try await sandbox.run(["--lang", "ko", "order", "grape-juice", "--count", "5"])
    #expect(short.status == 1, "\(short)")
    #expect(short.stderr.contains("포도"), "\(short)")

    let retired = try await sandbox.run(["packs", "retire", "grape.json", "Grape.xcstrings"])
    #expect(retired.status == 0, "\(retired)")
    #expect(retired.stdout.contains("menu version 2."), "\(retired)")
    let refused = try await sandbox.run(["order", "grape-juice"])
    #expect(refused.status == 64, "\(refused)")
    let again = try await sandbox.run(["--json", "packs", "retire", "grape.json"])
    #expect(again.status == 64, "\(again)")
    #expect(again.stdout.contains(#""error":"notPublished""#), "\(again)")
  }

  @Test func aBrokenPackIsNeverPublished() async throws {
    let sandbox = try Sandbox()
    let broken = try Self.packFile(sandbox, "melon.json", Self.truncated)
    let refused = try await sandbox.run(["packs", "publish", broken])
    #expect(refused.status == 65, "\(refused)")
    #expect(refused.stderr.hasPrefix("Nothing was published"), "\(refused)")
    #expect(refused.stderr.contains("melon.json"), "\(refused)")
    // A juice of an unknown fruit: a problem only with the other layers.
    let orphan = try Self.packFile(
      sandbox, "kiwi-plus.json",
      #"{"juices": [{"id": "lime-kiwi", "ingredients": [{"fruit": "lime", "count": 1}]}]}"#)
    let unknown = try await sandbox.run(["packs", "publish", orphan])
    #expect(unknown.status == 65, "\(unknown)")
    let notes = try Self.packFile(sandbox, "notes.txt", "grape")
    let text = try await sandbox.run(["--json", "packs", "publish", notes])
    #expect(text.status == 64, "\(text)")
    #expect(text.stdout.contains(#""error":"notAPackOrCatalog""#), "\(text)")
    let packs = try await sandbox.run(["packs"])
    #expect(packs.stdout.contains("Nothing is published to"), "\(packs)")
  }

  /// The issue's test: a pack published on one connection appears in a full-screen shop
  /// already running on another, on PostgreSQL.
  @Test(.enabled(if: TemporaryServer.isInstalled || TemporaryServer.isRequired))
  func aPackPublishedToPostgreSQLAppearsInARunningShop() async throws {
    let server = try TemporaryServer.start()
    defer { server.stop() }
    let uri = server.socketURI(database: try server.createDatabase())
    let sandbox = try Sandbox()
    let created = try await sandbox.run(["--store", uri, "init"], useStore: false)
    #expect(created.status == 0, "\(created)")
    let pane = try TmuxPane(["--lang", "en"], in: sandbox, store: uri, width: 100, height: 30)
    try await pane.waitFor(text: "Fresh juice")
    let file = try Self.packFile(sandbox, "grape.json", Self.grape)
    let names = try Self.packFile(sandbox, "Grape.xcstrings", Self.grapeNames)
    let published = try await sandbox.run(
      ["--store", uri, "packs", "publish", file, names], useStore: false)
    #expect(published.status == 0, "\(published)")
    let screen = try await pane.waitFor(text: "Grape Juice", timeout: Self.live)
    #expect(screen.joined(separator: "\n").contains("grape 4"), "\(screen)")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }
}
