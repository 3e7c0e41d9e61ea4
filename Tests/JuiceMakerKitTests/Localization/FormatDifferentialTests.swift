import Foundation
import JuiceMakerKit
import Testing

/// The renderer against Foundation's `String(format:)`, over generated format and argument
/// pairs, for every specifier Foundation on Linux renders as C does.
///
/// Left out, because Foundation on Linux gets them wrong or the renderer chooses otherwise on
/// purpose (see the String catalogs article in JuiceMakerKit's documentation): the `'` flag
/// (ignored by Foundation), `%Lf` (reads garbage), `%s` and `%lc` (need C pointers or wide
/// characters), a width or precision on `%@` (ignored), `%#@name@` and skipped positional
/// arguments, integers that do not fit the length modifier (C truncates them; the renderer
/// shows them whole), and negative numbers for the unsigned conversions (a mismatch for the
/// renderer).
struct FormatDifferentialTests {
  /// How many pairs to generate; `JUICE_MAKER_DIFFERENTIAL_PAIRS` raises it.
  static let pairs =
    Int(ProcessInfo.processInfo.environment["JUICE_MAKER_DIFFERENTIAL_PAIRS"] ?? "") ?? 6_000

  /// One generated specifier with the arguments it takes, in order.
  private struct Case {
    var format = ""
    var ours: [LocalizedArgument] = []
    var foundation: [any CVarArg] = []
  }

  @Test func rendererMatchesFoundationStringFormat() throws {
    var random = SplitMix64(seed: 0x5846_4F52_4D41_5431)
    var mismatches: [String] = []
    for _ in 0..<Self.pairs {
      var whole = Case()
      for _ in 0..<(1 + Int(random.next() % 3)) {
        if random.next() % 3 == 0 {
          whole.format += ["", " ", "x", "%%", " = ", "키위"][Int(random.next() % 6)]
        }
        Self.appendSpecifier(to: &whole, using: &random)
      }
      let expected = String(format: whole.format, arguments: whole.foundation)
      let text = try LocalizationFixtures.catalog(values: ["k": ["en": whole.format]])
        .localizer(for: "en").rendering("k", arguments: whole.ours)
      if text.value != expected || !text.warnings.isEmpty {
        mismatches.append(
          "\(whole.format.debugDescription) \(whole.ours): \(text.value.debugDescription) "
            + "≠ \(expected.debugDescription) \(text.warnings)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) of \(Self.pairs): \(mismatches.prefix(10))")
  }

  /// Appends one specifier, its `*` amounts, and its value.
  private static func appendSpecifier(to whole: inout Case, using random: inout SplitMix64) {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    let conversion = pick(Array("diuxXocfFeEgGaA@"))
    var flags = ""
    for flag in "-+ 0#" where random.next() % 4 == 0 {
      flags.append(flag)
    }
    var amounts: [Int] = []
    var width = ""
    var precision = ""
    if conversion != "@" {
      switch random.next() % 4 {
      case 0: width = String(random.next() % 30)
      case 1:
        width = "*"
        amounts.append(Int(random.next() % 41) - 20)
      default: break
      }
      if conversion != "c" {
        switch random.next() % 4 {
        case 0: precision = "." + String(random.next() % (conversion == "f" ? 60 : 25))
        case 1:
          precision = ".*"
          amounts.append(Int(random.next() % 30) - 5)
        case 2: precision = "."
        default: break
        }
      }
    } else {
      flags = ""
    }
    var length = ""
    var value: LocalizedArgument
    switch conversion {
    case "d", "i", "u", "x", "X", "o":
      length = pick(["", "h", "hh", "l", "ll", "q", "z", "t", "j"])
      let signed = conversion == "d" || conversion == "i"
      let number: Int =
        switch length {
        case "hh":
          Int(
            signed
              ? Int64(Int8.random(in: .min ... .max, using: &random))
              : Int64(UInt8.random(in: 0 ... .max, using: &random)))
        case "h":
          Int(
            signed
              ? Int64(Int16.random(in: .min ... .max, using: &random))
              : Int64(UInt16.random(in: 0 ... .max, using: &random)))
        case "":
          Int(
            signed
              ? Int64(Int32.random(in: .min ... .max, using: &random))
              : Int64(UInt32.random(in: 0 ... .max, using: &random)))
        default:
          pick([
            0, 1, -1, Int.min, Int.max, 42, -1_234_567,
            Int.random(in: .min ... .max, using: &random),
          ])
        }
      value = .int(signed ? number : abs(number == Int.min ? 0 : number))
    case "c":
      value = .int(Int.random(in: 0x21...0x7E, using: &random))
      flags = flags.replacingOccurrences(of: "0", with: "")
    case "@":
      value = .string(pick(["", "kiwi", "키위 주스", "%d %@ %n", "a b"]))
    default:
      length = pick(["", "l"])
      value = .double(
        pick([
          0.0, -0.0, 1.0, -1.5, 0.1, Double.leastNormalMagnitude / 1e4, 123_456.789, -9.87654321e-7,
          1e300, .infinity,
          -.infinity, .nan, .pi, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
          Double(bitPattern: random.next()),
        ]))
    }
    whole.format += "%" + flags + width + precision + length + String(conversion)
    for amount in amounts {
      whole.ours.append(.int(amount))
      whole.foundation.append(Int32(amount))
    }
    whole.ours.append(value)
    switch value {
    case .int(let number):
      switch length {
      case "hh", "h", "": whole.foundation.append(Int32(truncatingIfNeeded: number))
      default: whole.foundation.append(number)
      }
    case .double(let number): whole.foundation.append(number)
    case .string(let text): whole.foundation.append(text)
    }
  }
}
