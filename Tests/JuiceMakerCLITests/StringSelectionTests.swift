import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// What of the string catalogs a command line loads: the user's language alone for a command
/// that shows one and names no juice or fruit but by what may be its id, without the juices'
/// names for one that shows none, only the given juice's for one that shows only it, and
/// everything for the rest.
struct StringSelectionTests {
  enum Expected: Sendable {
    case everything
    case oneLanguage
    case oneLanguageWithoutJuices
    case oneLanguageWithJuice(String)
  }

  @Test(
    arguments: [
      (["menu"], .oneLanguage), (["history"], .oneLanguage), (["report"], .oneLanguage),
      (["rush"], .oneLanguage), (["menu", "--help"], .oneLanguage),
      (["stock"], .oneLanguageWithoutJuices), (["stock", "--low"], .oneLanguageWithoutJuices),
      (["reorder"], .oneLanguageWithoutJuices), (["init"], .oneLanguageWithoutJuices),
      (["packs"], .oneLanguageWithoutJuices), (["stock", "add", "딸기", "1"], .everything),
      (["stock", "add", "kiwi", "1"], .oneLanguageWithoutJuices),
      (["stock", "limits", "kiwi", "--min", "2"], .oneLanguageWithoutJuices),
      (["stock", "limits", "Kiwi", "--min", "2"], .everything),
      (["order", "kiwi-juice"], .oneLanguageWithJuice("kiwi-juice")),
      (["order", "Kiwi Juice"], .everything),
      (["order", "딸바쥬스"], .everything), (["validate"], .everything),
      (["shop"], .everything), ([], .everything), (["serve"], .everything),
    ] as [([String], Expected)])
  func aCommandLoadsWhatItShows(arguments: [String], expected: Expected) {
    let line = ParsedCommandLine.parse(
      arguments, commands: Commands.all, global: GlobalOptions.all)
    let korean: Set<String> = ["ko-KR", "ko"]
    let selection: StringCatalog.Selection =
      switch expected {
      case .everything: .everything
      case .oneLanguage: StringCatalog.Selection(languages: korean)
      case .oneLanguageWithoutJuices:
        StringCatalog.Selection(languages: korean, omittedPrefixes: ["juice."])
      case .oneLanguageWithJuice(let juice):
        StringCatalog.Selection(
          languages: korean, omittedPrefixes: ["juice."], keptKeys: ["juice." + juice])
      }
    #expect(line.stringSelection(language: "ko_KR.UTF-8") == selection)
  }
}
