import Foundation
import JuiceMakerKit
import Testing

/// Each conversion with the values formatting gets wrong: 0, negatives, `Int.min`, NaN, ±∞,
/// −0.0, the largest width and precision, and `*` amounts.
struct ArgumentFormatterTests {
  private func render(
    _ format: String, _ arguments: [LocalizedArgument], language: String = "en"
  ) throws -> LocalizedText {
    try LocalizationFixtures.catalog(values: ["k": ["en": format, "ko": format]])
      .localizer(for: language).rendering("k", arguments: arguments)
  }

  @Test(
    arguments: [
      ("%d", [0], "0"),
      ("%d", [-7], "-7"),
      ("%d", [.int(Int.min)], "-9223372036854775808"),
      ("%i", [.int(Int.max)], "9223372036854775807"),
      ("%hhd", [300], "300"),
      ("%hd", [-70_000], "-70000"),
      ("%lld", [.int(Int.min)], "-9223372036854775808"),
      ("%u", [.int(Int.max)], "9223372036854775807"),
      ("%x", [0], "0"),
      ("%#x", [0], "0"),
      ("%#x", [.int(Int.max)], "0x7fffffffffffffff"),
      ("%X", [0xBEEF], "BEEF"),
      ("%#o", [0], "0"),
      ("%#o", [8], "010"),
      ("%.0d", [0], ""),
      ("%#.0o", [0], "0"),
      ("%.5d", [-42], "-00042"),
      ("%+d", [0], "+0"),
      ("% d", [0], " 0"),
      ("%+ d", [1], "+1"),
      ("%08d", [.int(Int.min)], "-9223372036854775808"),
      ("%-+6d|", [3], "+3    |"),
      ("%06.3d", [7], "   007"),
      ("%'d", [.int(Int.min)], "-9,223,372,036,854,775,808"),
      ("%'d", [999], "999"),
      ("%'u", [1000], "1,000"),
      ("%'x", [0x10000], "10000"),
      ("%c", [0x41], "A"),
      ("%c", [0xAC00], "가"),
      ("%3c|", [0x41], "  A|"),
      ("%f", [.double(.nan)], "nan"),
      ("%F", [.double(-.nan)], "-NAN"),
      ("%f", [.double(.infinity)], "inf"),
      ("%E", [.double(-.infinity)], "-INF"),
      ("%010f", [.double(-.infinity)], "      -inf"),
      ("%+f", [.double(.infinity)], "+inf"),
      ("%f", [-0.0], "-0.000000"),
      ("%g", [-0.0], "-0"),
      ("%+.0f", [0.0], "+0"),
      ("%.0f", [0.5], "0"),
      ("%.0f", [1.5], "2"),
      ("%#.0f", [1.0], "1."),
      ("%#g", [1.0], "1.00000"),
      ("%e", [0.0], "0.000000e+00"),
      ("%.3e", [-1234.5678], "-1.235e+03"),
      ("%g", [1e-5], "1e-05"),
      ("%G", [1e20], "1E+20"),
      ("%a", [1.0], "0x1p+0"),
      ("%A", [-0.5], "-0X1P-1"),
      ("%010a", [1.0], "0x00001p+0"),
      ("%.40f", [0.1], "0.1000000000000000055511151231257827021182"),
      ("%'.2f", [1_234_567.891], "1,234,567.89"),
      ("%'012.1f", [-12345.0], "-00012,345.0"),
      ("%'g", [123456.0], "123,456"),
      ("%'e", [123456.0], "1.234560e+05"),
      ("%'.1f", [.double(.nan)], "nan"),
      ("%lf %Lf", [1.5, 2.5], "1.500000 2.500000"),
      ("%@", [.double(2.0)], "2"),
      ("%@", [.double(0.1)], "0.1"),
      ("%@", [.int(Int.min)], "-9223372036854775808"),
      ("%5@|%-5@|", ["ab", "cd"], "   ab|cd   |"),
      ("%.2@", ["키위주스"], "키위"),
      ("%05s", ["ab"], "   ab"),
      ("%.0s|", ["kiwi"], "|"),
      ("%*d", [-5, 42], "42   "),
      ("%-*d|", [-5, 42], "42   |"),
      ("%.*f", [-1, 1.5], "1.500000"),
      ("%*.*f|", [8, 2, 3.14159], "    3.14|"),
      ("%2$*1$d", [6, 42], "    42"),
      ("%1$.*2$f", [3.14159, 1], "3.1"),
      ("%4096d", [1], String(repeating: " ", count: 4095) + "1"),
      ("%.4096d", [0], String(repeating: "0", count: 4096)),
      ("%*d", [-4096, 1], "1" + String(repeating: " ", count: 4095)),
    ] as [(String, [LocalizedArgument], String)])
  func edgeValuesRenderAsCDoes(format: String, arguments: [LocalizedArgument], expected: String)
    throws
  {
    let text = try render(format, arguments)
    #expect(text.value == expected)
    #expect(text.warnings == [])
  }

  @Test func hugePrecisionOfADoubleIsRenderedInFull() throws {
    let text = try render("%.4096f", [1.0])
    #expect(text.value == "1." + String(repeating: "0", count: 4096))
    let exact = try render("%.1074f", [.double(.leastNonzeroMagnitude)])
    #expect(exact.value.hasPrefix("0.000"))
    #expect(exact.value.hasSuffix("625"))
    #expect(exact.value.utf8.count == 1076)
    let largest = try render("%f", [.double(.greatestFiniteMagnitude)])
    #expect(largest.value.hasPrefix("17976931348623157081452742373170435679807056752584499"))
    #expect(largest.value.hasSuffix("858368.000000"))
    #expect(largest.value.utf8.count == 309 + 7)
  }

  @Test(
    arguments: [
      ("%99999d", [1], "⟨%99999d?⟩"),
      ("%.4097f", [1.0], "⟨%.4097f?⟩"),
      ("%*d", [4097, 1], "⟨%*d?⟩"),
      ("%*d", [.int(Int.min), 1], "⟨%*d?⟩"),
      ("%.*f", [5000, 1.0], "⟨%.*f?⟩"),
      ("%*d", ["wide", 1], "⟨%*d?⟩"),
      ("%*d", [5], "⟨%*d?⟩"),
      ("%c", [.int(Int.max)], "⟨%c?⟩"),
      ("%f", [.string("1.5")], "⟨%f?⟩"),
    ] as [(String, [LocalizedArgument], String)])
  func amountsAndArgumentsThatCannotBeRenderedShowAMarker(
    format: String, arguments: [LocalizedArgument], expected: String
  ) throws {
    let text = try render(format, arguments)
    #expect(text.value == expected)
    #expect(text.warnings.count == 1)
  }

  @Test func groupingUsesTheChosenLanguagesSeparator() throws {
    #expect(try render("%'d", [1_234_567], language: "ko").value == "1,234,567")
    let german = try StringCatalog(
      data: Data(
        #"{"sourceLanguage": "de", "strings": {"k": {"localizations": {"de": {"stringUnit": {"value": "%'d %'.1f %.1f"}}}}}}"#
          .utf8))
    #expect(
      german.localizer(for: "de").string("k", 1_234_567, 1234.5, 0.5) == "1.234.567 1.234,5 0.5")
  }
}
