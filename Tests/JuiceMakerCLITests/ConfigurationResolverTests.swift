import Testing

@testable import JuiceMakerCLI

/// The one resolver of what the command takes from its environment.
struct ConfigurationResolverTests {
  @Test func xdgDirectoriesCountOnlyWhenAbsolute() {
    let absolute = Configuration(environment: [
      "HOME": "/home/ana", "XDG_CONFIG_HOME": "/etc/ana", "XDG_STATE_HOME": "/var/ana",
    ])
    #expect(absolute.configurationDirectory == "/etc/ana/juice-maker")
    #expect(absolute.stateDirectory == "/var/ana/juice-maker")
    #expect(absolute.defaultStore.text == "/var/ana/juice-maker/store.sqlite")
    let relative = Configuration(environment: [
      "HOME": "/home/ana", "XDG_CONFIG_HOME": "etc", "XDG_STATE_HOME": "",
    ])
    #expect(relative.configurationDirectory == "/home/ana/.config/juice-maker")
    #expect(relative.stateDirectory == "/home/ana/.local/state/juice-maker")
  }

  @Test func anEmptyHomeIsNoHome() {
    let configuration = Configuration(environment: ["HOME": ""])
    #expect(configuration.homeVariable == nil)
    #expect(!configuration.home.isEmpty)
  }

  @Test func anOptionsVariableIsReadAndAnEmptyOneIsAMistake() throws {
    let set = Configuration(environment: ["JUICE_MAKER_RECIPES": "/packs"])
    #expect(try set.value(for: GlobalOptions.recipes.spec) == "/packs")
    #expect(try set.value(for: GlobalOptions.lang.spec) == nil)
    let empty = Configuration(environment: ["JUICE_MAKER_RECIPES": ""])
    #expect(throws: CLIError.emptyValue(option: "JUICE_MAKER_RECIPES")) {
      try empty.value(for: GlobalOptions.recipes.spec)
    }
  }

  @Test func theLanguageIsTheOptionThenTheVariablesInOrder() {
    let configuration = Configuration(environment: [
      "JUICE_MAKER_LANG": "en", "LC_ALL": "C", "LANG": "ko_KR.UTF-8",
    ])
    #expect(configuration.language(given: "ko") == "ko")
    #expect(configuration.language(given: nil) == "en")
    #expect(
      Configuration(environment: ["LC_ALL": "C", "LANG": "ko_KR.UTF-8"]).language(given: nil)
        == "ko-KR")
  }
}
