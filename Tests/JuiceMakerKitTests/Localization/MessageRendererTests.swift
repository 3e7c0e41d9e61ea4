import JuiceMakerKit
import Synchronization
import Testing

struct MessageRendererTests {
  private func english(_ values: [String: String]) throws -> Localizer {
    try LocalizationFixtures.catalog(values: values.mapValues { ["en": $0] }).localizer(for: "en")
  }

  @Test(
    arguments: [
      ("%@ and %@", ["kiwi", "mango"], "kiwi and mango"),
      ("%2$@ before %1$@", ["kiwi", "mango"], "mango before kiwi"),
      ("only %2$@", ["kiwi", "mango"], "only mango"),
      ("%1$@, %1$@!", ["kiwi"], "kiwi, kiwi!"),
      ("%2$@ %@", ["kiwi", "mango"], "mango kiwi"),
      ("%lld %ld %d %i", [1, -2, 3, 4], "1 -2 3 4"),
      ("%u %llu %lu", [5, 6, 7], "5 6 7"),
      ("%2$lld of %1$@", ["kiwi", 9_000_000_000], "9000000000 of kiwi"),
      ("100%% fresh", ["x"], "100% fresh"),
      ("100%% fresh", [], "100%% fresh"),
      ("50% off", [], "50% off"),
      ("%@ and %lld", [], "%@ and %lld"),
      ("%%%@%%", ["x"], "%x%"),
      ("no specifiers", ["unused"], "no specifiers"),
    ] as [(String, [LocalizedArgument], String)])
  func rendersSupportedSpecifiers(value: String, arguments: [LocalizedArgument], expected: String)
    throws
  {
    let text = try english(["k": value]).rendering("k", arguments: arguments)
    #expect(text.value == expected)
    #expect(text.warnings == [])
  }

  @Test func argumentsAreInsertedVerbatimWithoutReinterpretingPercentSigns() throws {
    let text = try english(["k": "%@ / %lld"]).rendering("k", arguments: ["%@ %n %s", 1])
    #expect(text.value == "%@ %n %s / 1")
    #expect(text.warnings == [])
  }

  @Test func missingArgumentRendersAMarkerAndAWarning() throws {
    let text = try english(["k": "Hello %5$@!"]).rendering("k", arguments: ["kiwi"])
    #expect(text.value == "Hello ⟨%5$@?⟩!")
    #expect(
      text.warnings == [
        LocalizationWarning(
          key: "k", language: "en", problem: .missingArgument(specifier: "%5$@", position: 5))
      ])
  }

  @Test(arguments: [
    ("%lld kiwis", LocalizedArgument.string("many"), "⟨%lld?⟩ kiwis"),
    ("%f kiwis", .int(3), "⟨%f?⟩ kiwis"),
    ("%d kiwis", .double(1.5), "⟨%d?⟩ kiwis"),
    ("%u kiwis", .int(-3), "⟨%u?⟩ kiwis"),
    ("%x kiwis", .int(-3), "⟨%x?⟩ kiwis"),
    ("%c kiwis", .int(-3), "⟨%c?⟩ kiwis"),
    ("%c kiwis", .int(0xD800), "⟨%c?⟩ kiwis"),
    ("%s kiwis", .int(3), "⟨%s?⟩ kiwis"),
  ])
  func argumentOfTheWrongKindRendersAMarker(
    value: String, argument: LocalizedArgument, expected: String
  ) throws {
    let text = try english(["k": value]).rendering("k", arguments: [argument])
    #expect(text.value == expected)
    let warning = try #require(text.warnings.first)
    guard case .mismatchedArgument(_, 1, argument) = warning.problem else {
      Issue.record("unexpected warning \(warning)")
      return
    }
  }

  @Test func warningHandlerReceivesEveryRenderingWarning() throws {
    let received = Mutex<[LocalizationWarning]>([])
    let catalog = try LocalizationFixtures.catalog("MalformedSpecifiers.xcstrings")
    let english = catalog.localizer(for: "en") { warning in
      received.withLock { $0.append(warning) }
    }
    #expect(english.string("bad.position.missing", "kiwi") == "Hello ⟨%5$@?⟩!")
    _ = english.string("no.such.key")
    let warnings = received.withLock { $0 }
    #expect(warnings.map(\.key) == ["bad.position.missing", "no.such.key"])
    #expect(warnings.last?.problem == .missingKey)
  }

  @Test func substitutionWithArgNumFormatsItsArgumentInTheChosenBranch() throws {
    let english = try LocalizationFixtures.shippedCatalog().localizer(for: "en")
    let text = english.rendering("order.made.many", arguments: ["Kiwi Juice", 2])
    #expect(text.value == "Here are 2 cups of Kiwi Juice. Enjoy!")
    #expect(text.warnings == [])
  }

  @Test func substitutionWithTextArgumentRendersAMarker() throws {
    let english = try LocalizationFixtures.shippedCatalog().localizer(for: "en")
    let text = english.rendering("order.made.many", arguments: ["Kiwi Juice", "two"])
    #expect(text.value == "Here ⟨%#@cups@?⟩ of Kiwi Juice. Enjoy!")
    #expect(text.warnings.count == 1)
  }

  @Test func valueThatVariesByDeviceUsesTheOtherDevice() throws {
    let english = try LocalizationFixtures.catalog("Tolerant.xcstrings").localizer(for: "en")
    #expect(english.string("by.device") == "Press")
  }

  @Test func argumentLiteralsBuildArguments() {
    let arguments: [LocalizedArgument] = ["kiwi", 3]
    #expect(arguments == [.string("kiwi"), .int(3)])
    #expect(arguments.map(\.description) == ["kiwi", "3"])
  }
}
