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

  /// The Xcode-format catalogs of the library's tests, which hold every shape real apps have.
  static let xcodeCatalogs = Paths.root.appending(
    path: "Tests/JuiceMakerKitTests/Fixtures/Localization/Xcode")

  @Test func realWorldCatalogsInFourteenLanguagesRaiseNoPluralAlarm() async throws {
    let sandbox = try Sandbox()
    let file = Paths.root.appending(
      path: "Tests/JuiceMakerKitTests/Fixtures/Localization/RealWorld/Localizable.xcstrings")
    let outcome = try await sandbox.run(["validate", "--catalog", file.path])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(!outcome.stdout.contains("plural"), "\(outcome)")
    #expect(outcome.lines.last?.hasPrefix("Checked 1 catalog file") == true, "\(outcome)")
    #expect(outcome.lines.last?.contains(" in 14 languages: 0 errors, ") == true, "\(outcome)")
  }

  @Test func catalogOptionChecksAnAppsCatalogsAloneWithWarningsOnly() async throws {
    let sandbox = try Sandbox()
    let files = ["Shapes.xcstrings", "KoreanSource.xcstrings"].map {
      Self.xcodeCatalogs.appending(path: $0).path
    }
    let outcome = try await sandbox.run(["validate", "--catalog"] + files)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    #expect(
      outcome.lines.contains(
        "warning: Shapes.xcstrings: line 274, column 9: the key \"ko\" appears twice in one "
          + "object; this last copy is used, the one at line 268 is ignored"))
    #expect(
      outcome.lines.contains(
        "warning: [ko] apples: plural variation has a \"one\" branch, which this language never "
          + "uses; it is ignored"))
    #expect(
      outcome.lines.last?.hasPrefix("Checked 2 catalog files in 2 languages: 0 errors, ") == true)
    let korean = try await sandbox.run(["--lang", "ko", "validate", "--catalog", files[1]])
    #expect(korean.status == 0, "\(korean)")
    #expect(korean.lines.last?.hasPrefix("카탈로그 파일 1개, 언어 2개를 확인했어요: 오류 0개") == true)
  }

  @Test func catalogOptionReportsValuesThatCannotBeRenderedAsErrors() async throws {
    let sandbox = try Sandbox()
    let file = sandbox.path("App.xcstrings")
    try Data(
      #"""
      {
        "sourceLanguage" : "en",
        "strings" : {
          "bad" : {
            "localizations" : {
              "en" : { "stringUnit" : { "state" : "translated", "value" : "%1$@ costs %.2f %y" } }
            }
          },
          "fine" : {}
        },
        "version" : "1.0"
      }
      """#.utf8
    ).write(to: URL(fileURLWithPath: file))
    let outcome = try await sandbox.run(["--json", "validate", "--catalog", file])
    #expect(outcome.status == 65, "\(outcome)")
    let document = try outcome.json()
    #expect(document.int("errors") == 1)
    let issue = try #require(document.objects("issues").first)
    #expect(issue.string("key") == "bad")
    #expect(issue.string("message") == "unsupported format specifier: %y")
    let text = try await sandbox.run(["validate", "--catalog", file])
    #expect(text.status == 65, "\(text)")
    #expect(text.stdout.contains("error: [en] bad: unsupported format specifier: %y"))
  }

  @Test func catalogOptionNeedsReadableFiles() async throws {
    let sandbox = try Sandbox()
    let none = try await sandbox.run(["validate", "--catalog"])
    #expect(none.status == 64, "\(none)")
    let missing = try await sandbox.run(["validate", "--catalog", sandbox.path("None.xcstrings")])
    #expect(missing.status == 74, "\(missing)")
    #expect(missing.stderr.contains("None.xcstrings: cannot read the string catalog"))
    let notJSON = sandbox.path("Bad.xcstrings")
    try Data("{".utf8).write(to: URL(fileURLWithPath: notJSON))
    let malformed = try await sandbox.run(["validate", "--catalog", notJSON])
    #expect(malformed.status == 65, "\(malformed)")
    #expect(malformed.stderr.contains("Bad.xcstrings: not valid JSON: line 1, column 2"))
    let misplaced = try await sandbox.run(["menu", "--catalog"])
    #expect(misplaced.status == 64, "\(misplaced)")
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
