import Foundation
import Testing

/// A broken file in the user's configuration directory is left out with a warning naming
/// it: the other commands and the shops run on the valid layers, and `validate` fails on it.
struct BrokenUserLayerTests {
  /// A sandbox with files in the user's `recipes/` and `localization/` directories.
  static func sandbox(packs: [String: String] = [:], catalogs: [String: String] = [:]) throws
    -> Sandbox
  {
    let sandbox = try Sandbox()
    for (directory, files) in [("recipes", packs), ("localization", catalogs)] {
      let url = sandbox.directory.appending(path: ".config/juice-maker/" + directory)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      for (name, text) in files {
        try Data(text.utf8).write(to: url.appending(path: name))
      }
    }
    return sandbox
  }

  static let grape = #"""
    {"fruits": [{"id": "grape", "stock": 4}],
     "juices": [{"id": "grape-juice", "ingredients": [{"fruit": "grape", "count": 2}]}]}
    """#

  /// A typo: the file ends early.
  static let truncated = #"{"fruits": [{"id": "melon"}], "juices": ["#

  func userPath(_ sandbox: Sandbox, _ directory: String, _ name: String) -> String {
    sandbox.directory.appending(path: ".config/juice-maker/\(directory)/\(name)").path
  }

  @Test func aBrokenUserPackIsLeftOutWithAWarningNamingIt() async throws {
    let sandbox = try Self.sandbox(packs: ["grape.json": Self.grape, "melon.json": Self.truncated])
    let menu = try await sandbox.run(["menu"])
    #expect(menu.status == 0, "\(menu)")
    #expect(menu.stdout.contains("grape-juice"), "\(menu)")
    #expect(menu.stdout.contains("Kiwi Juice"), "\(menu)")
    let path = userPath(sandbox, "recipes", "melon.json")
    #expect(
      menu.stderr.hasPrefix(
        "warning: skipping your pack \(path), which has problems (juice-maker validate fails on it):\n  \(path): malformed JSON at line 1"
      ),
      "\(menu)")
    let stock = try await sandbox.run(["--json", "stock"])
    #expect(stock.status == 0, "\(stock)")
    #expect(try stock.json().objects("fruits").count == 6)
    let korean = try await sandbox.run(["--lang", "ko", "order", "grape-juice"])
    #expect(korean.status == 0, "\(korean)")
    #expect(korean.stderr.hasPrefix("경고: 문제가 있는 팩 \(path)"), "\(korean)")
  }

  @Test func theLineShopOpensDespiteABrokenUserPack() async throws {
    let sandbox = try Self.sandbox(packs: ["melon.json": Self.truncated])
    let shop = try await sandbox.run(["shop"], input: "2\nq\n")
    #expect(shop.status == 0, "\(shop)")
    #expect(shop.stdout.contains("Here is your Banana Juice. Enjoy!"), "\(shop)")
    #expect(shop.stderr.contains("melon.json, which has problems"), "\(shop)")
  }

  @Test func validateStillFailsOnABrokenUserPack() async throws {
    let sandbox = try Self.sandbox(packs: ["melon.json": Self.truncated])
    let outcome = try await sandbox.run(["validate"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(
      outcome.stderr.contains(userPath(sandbox, "recipes", "melon.json") + ": malformed JSON"),
      "\(outcome)")
    #expect(!outcome.stderr.contains("skipping"), "\(outcome)")
  }

  @Test func aPackThatNeedsALeftOutPackIsLeftOutToo() async throws {
    let needsMelon = #"""
      {"juices": [{"id": "melon-juice", "ingredients": [{"fruit": "melon", "count": 1}]}]}
      """#
    let sandbox = try Self.sandbox(
      packs: ["grape.json": Self.grape, "melon.json": Self.truncated, "z.json": needsMelon])
    let menu = try await sandbox.run(["--json", "menu"])
    #expect(menu.status == 0, "\(menu)")
    let ids = try menu.json().objects("juices").map { $0.string("id") }
    #expect(ids.contains("grape-juice"))
    #expect(!ids.contains("melon-juice"))
    #expect(menu.stderr.contains("melon.json, which has problems"), "\(menu)")
    #expect(menu.stderr.contains("z.json, which has problems"), "\(menu)")
    #expect(menu.stderr.contains(#"unknown fruit "melon""#), "\(menu)")
  }

  @Test func aPackRedefiningABuiltInJuiceIsLeftOutWithEveryProblem() async throws {
    let pack = #"""
      {"juices": [{"id": "kiwi-juice", "ingredients": [{"fruit": "kiwi", "count": 9}]},
                  {"id": "pear-juice", "ingredients": [{"fruit": "pear", "count": 1}]}]}
      """#
    let sandbox = try Self.sandbox(packs: ["tropical.json": pack])
    let menu = try await sandbox.run(["menu"])
    #expect(menu.status == 0, "\(menu)")
    #expect(menu.stdout.contains("kiwis 3"), "\(menu)")
    #expect(menu.stderr.contains(#"juices[0].id: juice "kiwi-juice" is already defined"#))
    #expect(menu.stderr.contains(#"juices[1].ingredients[0].fruit: unknown fruit "pear""#))
  }

  @Test func aBrokenGivenPackStillStopsTheCommand() async throws {
    let sandbox = try Sandbox()
    let given = sandbox.directory.appending(path: "given")
    try FileManager.default.createDirectory(at: given, withIntermediateDirectories: true)
    try Data(Self.truncated.utf8).write(to: given.appending(path: "melon.json"))
    let outcome = try await sandbox.run(["--recipes", given.path, "menu"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr.hasPrefix("The recipe packs have 1 problem:"), "\(outcome)")
  }

  @Test func aBrokenUserCatalogIsLeftOutWithAWarningAndFailsValidate() async throws {
    let broken = #"{"sourceLanguage": "en", "strings": {"order.made": "#
    let sandbox = try Self.sandbox(catalogs: ["Japanese.xcstrings": broken])
    let path = userPath(sandbox, "localization", "Japanese.xcstrings")
    let order = try await sandbox.run(["--lang", "ko", "order", "kiwi-juice"])
    #expect(order.status == 0, "\(order)")
    #expect(order.stdout == "키위쥬스 나왔습니다! 맛있게 드세요!\n")
    #expect(
      order.stderr.hasPrefix("경고: 문제가 있는 문자열 카탈로그 \(path)(은)는 건너뛰어요"), "\(order)")
    #expect(order.stderr.contains("\n  \(path): not valid JSON"), "\(order)")
    let validate = try await sandbox.run(["validate"])
    #expect(validate.status == 65, "\(validate)")
    #expect(validate.stdout.contains("error: \(path): not valid JSON"), "\(validate)")
    #expect(validate.stderr == "", "\(validate)")
  }
}
