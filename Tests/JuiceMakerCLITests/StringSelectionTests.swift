import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// Which languages of the string catalogs a command line loads: the user's alone for a command
/// that shows one and names no juice or fruit, every one for the rest.
struct StringSelectionTests {
  @Test(
    arguments: [
      (["menu"], true), (["stock"], true), (["stock", "--low"], true), (["history"], true),
      (["report"], true), (["reorder"], true), (["init"], true), (["packs"], true),
      (["menu", "--help"], true), (["stock", "add", "딸기", "1"], false),
      (["stock", "limits", "kiwi", "--min", "2"], false), (["order", "kiwi-juice"], false),
      (["validate"], false), (["shop"], false), ([], false), (["serve"], false),
    ] as [([String], Bool)])
  func aCommandLoadsOneLanguageOnlyWhenItNeedsNoOther(arguments: [String], oneLanguage: Bool) {
    let line = ParsedCommandLine.parse(
      arguments, commands: Commands.all, global: GlobalOptions.all)
    let selection = line.stringSelection(language: "ko_KR.UTF-8")
    #expect(
      selection
        == (oneLanguage ? StringCatalog.Selection(languages: ["ko-KR", "ko"]) : .everything))
  }
}
