import Foundation
import Testing

struct LanguageTests {
  static let korean = "딸바쥬스 나왔습니다! 맛있게 드세요!\n"
  static let english = "Here is your Strawberry Banana Juice. Enjoy!\n"

  @Test(
    arguments: [
      (["LANG": "ko_KR.UTF-8"], [], korean),
      (["LANG": "en_US.UTF-8"], [], english),
      (["LANG": "C"], [], english),
      ([:], [], english),
      (["LANG": "ko_KR.UTF-8", "JUICE_MAKER_LANG": "en"], [], english),
      (["LANG": "en_US.UTF-8", "JUICE_MAKER_LANG": "ko"], [], korean),
      (["LANG": "ko_KR.UTF-8", "JUICE_MAKER_LANG": "ko"], ["--lang", "en"], english),
      (["LANG": "en_US.UTF-8", "JUICE_MAKER_LANG": "en"], ["--lang", "ko"], korean),
      (["LANG": "en_US.UTF-8", "LC_ALL": "ko_KR.UTF-8"], [], korean),
      (["LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR"], [], korean),
      (["LANG": "ko_KR.UTF-8", "LC_ALL": ""], [], korean),
      ([:], ["--lang", "ko-KR"], korean),
      ([:], ["--lang", "KO"], korean),
      ([:], ["--lang=ko_KR.UTF-8"], korean),
    ] as [([String: String], [String], String)])
  func languageComesFromLangThenJuiceMakerLangThenTheLocale(
    environment: [String: String], options: [String], message: String
  ) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      options + ["order", "strawberry-banana-juice"], environment: environment)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == message)
    #expect(outcome.stderr == "")
  }

  @Test func languageWithoutStringsFallsBackToEnglishWithOneWarning() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "fr", "order", "banana-juice"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "Here is your Banana Juice. Enjoy!\n")
    #expect(outcome.stderr == "[fr]: no strings for language \"fr\"; using \"en\"\n")
    let json = try await sandbox.run(["--json", "stock"], environment: ["LANG": "de_DE.UTF-8"])
    #expect(json.status == 0, "\(json)")
    #expect(try json.json().objects("fruits").count == 5)
    #expect(json.stderr == "[de-DE]: no strings for language \"de-DE\"; using \"en\"\n")
  }

  @Test func errorsAreLocalizedToo() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["order", "포도쥬스"], environment: ["LANG": "ko_KR.UTF-8"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr == "메뉴에 “포도쥬스”라는 쥬스가 없어요. juice-maker menu로 메뉴를 확인하세요.\n")
    let usage = try await sandbox.run(["--lang", "ko", "order", "kiwi-juice", "--count", "0"])
    #expect(usage.stderr == "--count 값은 1 이상이어야 해요. 0은 안 돼요.\n")
  }

  @Test(arguments: [
    (["n"], "“n”이라는 명령은 없어요. juice-maker --help로 명령을 확인하세요.\n"),
    (["stock", "add", "kiwi"], "stock add 명령에 N이 필요해요.\n"),
    (["order", "kiwi-juice", "--count", "3x"], "--count 값은 정수여야 해요. “3x”는 정수가 아니에요.\n"),
  ])
  func koreanParticlesFollowLatinLettersAndDigits(arguments: [String], message: String)
    async throws
  {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "ko"] + arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr == message)
  }

  @Test func helpIsLocalized() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["order", "--help"])
    #expect(
      english.lines.first
        == "Usage: juice-maker order JUICE [--count N] [--request-id ID] [options]")
    let korean = try await sandbox.run(["order", "--help"], environment: ["LANG": "ko_KR.UTF-8"])
    #expect(korean.lines.first == "사용법: juice-maker order JUICE [--count N] [--request-id ID] [옵션]")
  }
}

/// English names agree with the counts beside them, on every screen.
struct CountAgreementTests {
  @Test func englishNamesAgreeWithTheirCountsInStockAndTheShop() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["kiwi": 1, "mango": 0])
    let stock = try await sandbox.run(["stock"])
    #expect(stock.lines.contains("kiwi          1"), "\(stock)")
    #expect(stock.lines.contains("mangoes       0"), "\(stock)")
    let shop = try await sandbox.run(["shop"], input: "s\n+ kiwi 1\nClose\nq\n")
    #expect(
      shop.lines.contains("strawberries 10 · bananas 10 · pineapples 10 · kiwi 1 · mangoes 0"))
    #expect(shop.lines.contains("  4) kiwi 1"), "\(shop)")
    #expect(shop.lines.contains("> kiwis: 2 in stock"), "\(shop)")
    let rush = try await sandbox.run(["rush", "--orders", "1", "--shops", "1"], useStore: false)
    #expect(rush.stdout.contains("strawberries"), "\(rush)")
  }

  @Test func particlesAfterAQuotedWordAreRendered() async throws {
    let sandbox = try Sandbox()
    let juice = try await sandbox.run(["--lang", "ko", "order", "수박"])
    #expect(juice.stderr == "메뉴에 “수박”이라는 쥬스가 없어요. juice-maker menu로 메뉴를 확인하세요.\n")
    let fruit = try await sandbox.run(["--lang", "ko", "stock", "add", "배", "1"])
    #expect(fruit.stderr == "가게에 “배”라는 과일이 없어요. juice-maker stock으로 재고를 확인하세요.\n")
    let command = try await sandbox.run(["--lang", "ko", "사과"])
    #expect(command.stderr.hasPrefix("“사과”라는 명령은 없어요."), "\(command)")
  }

  @Test func longInputIsCutShortWithAMarkerInTheUsersLanguage() async throws {
    let sandbox = try Sandbox()
    let long = String(repeating: "x", count: 4095)
    let korean = try await sandbox.run(["--lang", "ko", "order", long])
    #expect(korean.status == 64, "\(korean)")
    #expect(korean.stderr.contains("… (4095바이트)"), "\(korean)")
    #expect(!korean.stderr.contains("bytes"), "\(korean)")
    let english = try await sandbox.run(["order", long])
    #expect(english.stderr.contains("… (4095 bytes)"), "\(english)")
  }
}

/// Pack problems read in the user's language, not in English inside a Korean sentence.
struct PackProblemLanguageTests {
  @Test func packProblemsAreInKorean() async throws {
    let sandbox = try Sandbox()
    let broken = sandbox.directory.appending(path: "broken")
    try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
    try Data(
      #"{"juices":[{"id":"x-juice","ingridients":[]}],"fruits":[{"id":"kiwi2","stock":-1}]}"#.utf8
    ).write(to: broken.appending(path: "juices.json"))
    let outcome = try await sandbox.run(["--lang", "ko", "--recipes", broken.path, "menu"])
    #expect(outcome.status == 65, "\(outcome)")
    let file = broken.appending(path: "juices.json").path
    #expect(
      outcome.errorLines == [
        "레시피 팩에 문제가 3개 있어요:",
        "  \(file): juices[0].ingridients: 모르는 키 \"ingridients\"",
        "  \(file): juices[0]: \"ingredients\" 키가 없어요",
        "  \(file): fruits[0].stock: 재고는 음수일 수 없어요 (지금 -1)",
      ])
    let missing = try await sandbox.run([
      "--lang", "ko", "--recipes", sandbox.path("nowhere"), "menu",
    ])
    #expect(missing.stderr.contains("레시피 폴더가 없어요"), "\(missing)")
    #expect(!missing.stderr.contains("does not exist"), "\(missing)")
  }
}

/// A language added by dropping one catalog file into the user's localization directory.
struct AddedLanguageTests {
  /// The README's `Japanese.xcstrings`, the first JSON block of "Adding a language".
  static func readmeCatalog() throws -> String {
    let readme = try String(
      contentsOf: Paths.root.appending(path: "README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "### Adding a language\n"))
    let rest = readme[section.upperBound...]
    let start = try #require(rest.range(of: "```json\n"))
    let end = try #require(rest[start.upperBound...].range(of: "```\n"))
    return String(rest[start.upperBound..<end.lowerBound])
  }

  /// A sandbox with the README's catalog in the user's localization directory.
  static func sandbox() throws -> Sandbox {
    let sandbox = try Sandbox()
    let directory = sandbox.directory.appending(path: ".config/juice-maker/localization")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try readmeCatalog().write(
      to: directory.appending(path: "Japanese.xcstrings"), atomically: true, encoding: .utf8)
    return sandbox
  }

  @Test(
    arguments: [
      ([:], ["--lang", "ja"]), (["LANG": "ja_JP.UTF-8"], []), (["JUICE_MAKER_LANG": "ja"], []),
    ] as [([String: String], [String])])
  func theReadmesCatalogAddsJapanese(environment: [String: String], options: [String])
    async throws
  {
    let sandbox = try Self.sandbox()
    let made = try await sandbox.run(
      options + ["order", "strawberry-banana-juice"], environment: environment)
    #expect(made.status == 0, "\(made)")
    #expect(made.stdout == "いちごバナナジュースをどうぞ。\n")
    #expect(made.stderr == "")
    // A key the file leaves out falls back to English on its own.
    let fallback = try await sandbox.run(
      options + ["order", "banana-juice"], environment: environment)
    #expect(fallback.stdout == "Banana Juiceをどうぞ。\n", "\(fallback)")
  }

  @Test func validateListsWhatJapaneseStillLacksAsWarnings() async throws {
    let sandbox = try Self.sandbox()
    let outcome = try await sandbox.run(["validate"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("warning: [ja] juice.banana-juice: missing name"), "\(outcome)")
    #expect(!outcome.stdout.contains("plural"), "\(outcome)")
    #expect(outcome.stdout.contains("languages: 0 errors, "), "\(outcome)")
    let packs = try await sandbox.run(["packs"])
    #expect(packs.stdout.contains("Japanese.xcstrings"), "\(packs)")
  }

  @Test func aKeyTwoFilesGiveOneLanguageIsOneLinePerProblemWithoutEscapes() async throws {
    let sandbox = try Self.sandbox()
    let directory = sandbox.directory.appending(path: ".config/juice-maker/localization")
    try Self.readmeCatalog().write(
      to: directory.appending(path: "Nihongo.xcstrings"), atomically: true, encoding: .utf8)
    let outcome = try await sandbox.run(["validate"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(!outcome.stdout.contains("\\u{"), "\(outcome)")
    #expect(!outcome.stderr.contains("\\u{"), "\(outcome)")
    let line = try #require(
      (outcome.stdout + outcome.stderr).split(separator: "\n").first {
        $0.contains("fruit.banana")
      })
    #expect(line.contains("Nihongo.xcstrings: key \"fruit.banana\" is already defined in "))
    #expect(line.contains("Japanese.xcstrings for language \"ja\""))
  }
}
