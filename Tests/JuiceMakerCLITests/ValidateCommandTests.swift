import Foundation
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
    let korean = try await sandbox.run(data + ["--lang", "ko", "validate"])
    #expect(korean.lines.first == "경고: [ko] juice.melon-juice: 이름이 없어요", "\(korean)")
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

/// `validate` finds names that make ordering ambiguous, and reports once, on standard output.
struct ValidateReportTests {
  @Test func duplicateDisplayNamesInOneLanguageAreErrors() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.ambiguous(in: sandbox)
    let outcome = try await sandbox.run(data + ["validate"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr == "", "\(outcome)")
    #expect(
      outcome.lines.contains(
        "error: [ko] “라즈베리” is the name of more than one fruit: lime, raspberry. Editing the stock by that name is ambiguous."
      ), "\(outcome)")
    let summaries = outcome.lines.filter { $0.hasPrefix("Checked ") }
    #expect(summaries == [outcome.lines.last], "\(outcome)")
    #expect(outcome.lines.last?.hasSuffix(": 1 error, 0 warnings.") == true, "\(outcome)")
    let json = try await sandbox.run(data + ["--json", "validate"])
    #expect(json.status == 65, "\(json)")
    let document = try json.json()
    #expect(document.bool("ok") == false)
    #expect(
      document.objects("issues").contains {
        $0.string("language") == "ko" && $0.string("severity") == "error"
      })
  }

  @Test func errorsAndTheSummaryAreOneReportOnStandardOutput() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.untranslatedJuice(in: sandbox)
    let localization = data[3]
    // Remove the English name too: a missing name in the source language is an error.
    try Data(
      #"{ "sourceLanguage": "en", "version": "1.0", "strings": {} }"#.utf8
    ).write(to: URL(fileURLWithPath: localization).appending(path: "Melon.xcstrings"))
    let outcome = try await sandbox.run(data + ["validate"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr == "", "\(outcome)")
    #expect(outcome.lines.first?.hasPrefix("error:") == true, "\(outcome)")
    #expect(outcome.lines.filter { $0.hasPrefix("Checked ") }.count == 1, "\(outcome)")
  }
}
