import Testing

struct ValidateCommandTests {
  @Test func shippedDataHasNoMissingTranslation() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["validate"])
    #expect(english.status == 0, "\(english)")
    #expect(english.stdout == "Checked 5 fruits, 7 juices and 2 languages: 0 errors, 0 warnings.\n")
    #expect(english.stderr == "")
    let korean = try await sandbox.run(["--lang", "ko", "validate"])
    #expect(korean.status == 0, "\(korean)")
    #expect(korean.stdout == "과일 5개, 쥬스 7개, 언어 2개를 확인했어요: 오류 0개, 경고 0개.\n")
    let json = try await sandbox.run(["--json", "validate"])
    #expect(json.status == 0, "\(json)")
    let document = try json.json()
    #expect(document.bool("ok") == true)
    #expect(document.int("errors") == 0)
    #expect(document.int("warnings") == 0)
    #expect(document.objects("issues").isEmpty)
  }

  @Test func missingKoreanNameIsAWarning() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.untranslatedJuice(in: sandbox)
    let outcome = try await sandbox.run(data + ["--json", "validate"])
    #expect(outcome.status == 0, "\(outcome)")
    let document = try outcome.json()
    #expect(document.int("errors") == 0)
    #expect(document.int("warnings") == 1)
    let issue = try #require(document.objects("issues").first)
    #expect(issue.string("severity") == "warning")
    #expect(issue.string("language") == "ko")
    #expect(issue.string("key") == "juice.melon-juice")
    let text = try await sandbox.run(data + ["validate"])
    #expect(text.status == 0, "\(text)")
    #expect(text.lines.first == "warning: [ko] juice.melon-juice: missing name")
  }

  @Test func brokenCatalogIsADataError() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.brokenCatalog(in: sandbox)
    let outcome = try await sandbox.run(data + ["--json", "validate"])
    #expect(outcome.status == 65, "\(outcome)")
    let document = try outcome.json()
    #expect(document.bool("ok") == false)
    #expect(document.string("error") == "invalidCatalog")
    #expect(document.string("message")?.contains("Broken.xcstrings") == true)
    #expect(outcome.stderr == "")
  }
}
