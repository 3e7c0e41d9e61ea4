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
    #expect(outcome.stderr == "메뉴에 “포도쥬스”(이)라는 쥬스가 없어요. juice-maker menu로 메뉴를 확인하세요.\n")
    let usage = try await sandbox.run(["--lang", "ko", "order", "kiwi-juice", "--count", "0"])
    #expect(usage.stderr == "--count 값은 1 이상이어야 해요. 0은 안 돼요.\n")
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
