import JuiceMakerKit
import Testing

struct MalformedSpecifierTests {
  @Test(arguments: [
    ("bad.q", "Odd ⟨%q?⟩ here", SpecifierProblem.incomplete),
    ("bad.substitution", "You have ⟨%#@missing@?⟩.", .undefinedSubstitution(name: "missing")),
    ("bad.zero", "Zero ⟨%0$@?⟩", .invalidPosition),
    ("bad.huge", "Huge ⟨%99999999999999999999$@?⟩", .invalidPosition),
    ("bad.trailing", "Ends with ⟨%?⟩", .incomplete),
  ])
  func malformedSpecifierRendersAMarkerAndAWarning(
    key: String, expected: String, problem: SpecifierProblem
  ) throws {
    let english = try LocalizationFixtures.catalog("MalformedSpecifiers.xcstrings")
      .localizer(for: "en")
    let text = english.rendering(key, arguments: ["kiwi"])
    #expect(text.value == expected)
    #expect(text.warnings.count == 1)
    guard case .malformedSpecifier(_, let reported) = text.warnings.first?.problem else {
      Issue.record("expected a malformed specifier warning, got \(text.warnings)")
      return
    }
    #expect(reported == problem)
  }

  @Test func everyMalformedSpecifierInOneValueRendersWithoutCrashing() throws {
    let english = try LocalizationFixtures.catalog("MalformedSpecifiers.xcstrings")
      .localizer(for: "en")
    let text = english.rendering("bad.all", arguments: ["kiwi"])
    #expect(
      text.value
        == "⟨% ?⟩⟨%5$@?⟩ ⟨%q?⟩ ⟨%1$ ?⟩⟨%#@missing@?⟩ ⟨%lld?⟩ ⟨%0$@?⟩ ⟨%99999999999999999999$@?⟩ ⟨%?⟩"
    )
    #expect(text.warnings.count == 9)
  }

  @Test func stringArgumentForAnIntegerSpecifierRendersAMarker() throws {
    let english = try LocalizationFixtures.catalog("MalformedSpecifiers.xcstrings")
      .localizer(for: "en")
    #expect(english.string("bad.kind", "many") == "⟨%lld?⟩ kiwis")
    #expect(english.string("bad.kind", 4) == "4 kiwis")
  }

  @Test(arguments: [
    ("%", "⟨%?⟩"), ("%%%", "%⟨%?⟩"), ("%1", "⟨%1?⟩"), ("%1$", "⟨%1$?⟩"), ("%#", "⟨%#?⟩"),
    ("%#@", "⟨%#@?⟩"), ("%#@x", "⟨%#@x?⟩"), ("%#@@", "⟨%#@?⟩@"), ("%l", "⟨%l?⟩"),
    ("%ll", "⟨%ll?⟩"), ("%lll", "⟨%lll?⟩"), ("%5d", "⟨%5d?⟩"), ("%s", "kiwi"), ("%@%", "kiwi⟨%?⟩"),
    ("%arg", "⟨%arg?⟩"), ("%1$#@x@", "⟨%1$#@x@?⟩"), ("\u{0}%\u{0}", "\u{0}⟨%?⟩\u{0}"),
    ("%٣$@", "⟨%?⟩٣$@"), ("%99999d", "⟨%99999d?⟩"), ("%.99999f", "⟨%.99999f?⟩"),
    ("%*.*f", "⟨%*.*f?⟩"), ("%*0$d", "⟨%*0$d?⟩"), ("%hf", "⟨%hf?⟩"), ("%lls", "⟨%lls?⟩"),
    ("%l@", "⟨%l@?⟩"), ("%n", "⟨%n?⟩"), ("%p", "⟨%p?⟩"), ("%-+ 0#'", "⟨%-+ 0#'?⟩"),
  ])
  func arbitraryBrokenValuesNeverCrash(value: String, expected: String) throws {
    let text = try LocalizationFixtures.catalog(values: ["k": ["en": value]])
      .localizer(for: "en").rendering("k", arguments: ["kiwi"])
    #expect(text.value == expected)
    #expect(text.warnings.isEmpty == !expected.contains("⟨"))
  }
}
