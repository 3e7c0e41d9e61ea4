import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Formats one argument for one parsed specifier, as C's `printf` and Foundation's
/// `String(format:)` do, without ever reading an argument of the wrong type.
///
/// Whole numbers and text are formatted here. Floating-point numbers go to the C library's
/// `vsnprintf`, one conversion at a time, through a conversion string built from the parsed
/// specifier (never from catalog text) and always in the C locale; grouping and padding are
/// applied here afterwards. Numbers follow the C locale (`1234.5`) unless the `'` flag asks for
/// grouping: then they use the language's group and decimal separators (`1,234.5` in English
/// and Korean, `1.234,5` in German).
///
/// Where Foundation and C differ from a safe reading, the formatter chooses:
/// - length modifiers never truncate: `%hhd` of 300 is `300`;
/// - `%u`, `%x`, `%X`, `%o` take a non-negative number; a negative one is a mismatch;
/// - `%c` takes a Unicode code point and writes that character;
/// - widths and precisions of text count characters, and a precision cuts text after that
///   many characters;
/// - `%@` writes a number as Swift does, a whole `Double` without a fraction (`2`, not `2.0`).
enum ArgumentFormatter {
  /// Formats an argument.
  ///
  /// - Parameters:
  ///   - argument: The argument.
  ///   - format: The specifier; its `*` amounts are already resolved into `width` and
  ///     `precision`.
  ///   - width: The minimum width in characters, or `nil`.
  ///   - precision: The precision, or `nil` for the default.
  ///   - leftJustify: Whether to pad on the right (the `-` flag, or a negative `*` width).
  ///   - separators: The language's separators for the `'` flag, asked only when it is used.
  /// - Returns: The text, or `nil` when the argument does not suit the conversion.
  static func format(
    _ argument: LocalizedArgument, as format: FormatSpecifier, width: Int?, precision: Int?,
    leftJustify: Bool, separators: () -> Separators
  ) -> String? {
    let flags = format.flags
    switch (format.conversion, argument) {
    case (.object, .string(let text)), (.text, .string(let text)):
      return padded(
        "", precision.map { String(text.prefix($0)) } ?? text, width: width,
        leftJustify: leftJustify, zeroPad: false)
    case (.object, .int(let number)):
      return padded(
        "", String(number), width: width, leftJustify: leftJustify, zeroPad: false)
    case (.object, .double(let number)):
      let text =
        if number.rounded() == number, abs(number) < 1e15 { String(Int(number)) } else {
          number.description
        }
      return padded("", text, width: width, leftJustify: leftJustify, zeroPad: false)
    case (.character, .int(let number)):
      guard let code = UInt32(exactly: number), let scalar = Unicode.Scalar(code) else {
        return nil
      }
      return padded(
        "", String(Character(scalar)), width: width, leftJustify: leftJustify, zeroPad: false)
    case (.signed, .int(let number)), (.unsigned, .int(let number)),
      (.octal, .int(let number)), (.hex, .int(let number)):
      return integer(
        number, format.conversion, flags: flags, width: width, precision: precision,
        leftJustify: leftJustify, separators: separators)
    case (.floating(let letter), .double(let number)):
      return floating(
        number, letter: letter, flags: flags, width: width, precision: precision,
        leftJustify: leftJustify, separators: separators)
    default:
      return nil
    }
  }

  /// The separators the `'` flag uses.
  struct Separators {
    /// Between groups of three digits, such as `,` in English.
    let grouping: String
    /// Before the fraction, such as `.` in English.
    let decimal: String

    /// The separators of a language, such as `,` and `.` for `en` and `ko` or `.` and `,` for
    /// `de`; `,` and `.` when the language is unknown.
    ///
    /// - Parameter language: A language tag, such as `en` or `de-CH`.
    init(language: String) {
      let locale = Locale(identifier: language)
      grouping = locale.groupingSeparator ?? ","
      decimal = locale.decimalSeparator ?? "."
    }
  }

  // MARK: - Whole numbers

  private static func integer(
    _ number: Int, _ conversion: FormatSpecifier.Conversion, flags: FormatSpecifier.Flags,
    width: Int?, precision: Int?, leftJustify: Bool, separators: () -> Separators
  ) -> String? {
    let radix: Int
    var uppercase = false
    var signed = false
    switch conversion {
    case .signed: (radix, signed) = (10, true)
    case .unsigned: radix = 10
    case .octal: radix = 8
    case .hex(let upper): (radix, uppercase) = (16, upper)
    default: return nil
    }
    guard signed || number >= 0 else { return nil }
    let magnitude = number.magnitude
    var digits =
      precision == 0 && magnitude == 0
      ? "" : String(magnitude, radix: radix, uppercase: uppercase)
    if let precision, digits.utf8.count < precision {
      digits = String(repeating: "0", count: precision - digits.utf8.count) + digits
    }
    if radix == 8, flags.contains(.alternate), !digits.hasPrefix("0") {
      digits = "0" + digits
    }
    if radix == 10, flags.contains(.grouping) {
      digits = grouped(digits, separator: separators().grouping)
    }
    var prefix = ""
    if number < 0 {
      prefix = "-"
    } else if signed, flags.contains(.plusSign) {
      prefix = "+"
    } else if signed, flags.contains(.spaceSign) {
      prefix = " "
    }
    if radix == 16, flags.contains(.alternate), magnitude != 0 {
      prefix += uppercase ? "0X" : "0x"
    }
    return padded(
      prefix, digits, width: width, leftJustify: leftJustify,
      zeroPad: flags.contains(.zeroPad) && precision == nil)
  }

  // MARK: - Floating point

  private static func floating(
    _ number: Double, letter: UInt8, flags: FormatSpecifier.Flags, width: Int?,
    precision: Int?, leftJustify: Bool, separators: () -> Separators
  ) -> String {
    // The conversion string is built from the parsed parts only: `%`, sign and `#` flags, a
    // precision of at most `FormatSpecifier.maximumAmount`, and one conversion letter.
    var conversion: [CChar] = [CChar(UInt8(ascii: "%"))]
    if flags.contains(.plusSign) { conversion.append(CChar(UInt8(ascii: "+"))) }
    if flags.contains(.spaceSign) { conversion.append(CChar(UInt8(ascii: " "))) }
    if flags.contains(.alternate) { conversion.append(CChar(UInt8(ascii: "#"))) }
    if let precision {
      conversion.append(CChar(UInt8(ascii: ".")))
      conversion += String(min(precision, FormatSpecifier.maximumAmount)).utf8.map {
        CChar(bitPattern: $0)
      }
    }
    conversion += [CChar(bitPattern: letter), 0]
    var text = CLocale.format(number, conversion: conversion)

    var prefix = ""
    if let first = text.utf8.first,
      first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: " ")
    {
      prefix = String(text.prefix(1))
      text.removeFirst()
    }
    if letter == UInt8(ascii: "a") || letter == UInt8(ascii: "A"), number.isFinite {
      prefix += String(text.prefix(2))
      text.removeFirst(2)
    }
    if flags.contains(.grouping), number.isFinite {
      let separators = separators()
      let wholeEnd = text.firstIndex { !$0.isASCII || !$0.isNumber } ?? text.endIndex
      var fraction = text[wholeEnd...]
      if fraction.first == "." {
        fraction = Substring(separators.decimal) + fraction.dropFirst()
      }
      let groups =
        [UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "g"), UInt8(ascii: "G")]
        .contains(letter)
      let whole = String(text[..<wholeEnd])
      text = (groups ? grouped(whole, separator: separators.grouping) : whole) + fraction
    }
    return padded(
      prefix, text, width: width, leftJustify: leftJustify,
      zeroPad: flags.contains(.zeroPad) && number.isFinite)
  }

  // MARK: - Helpers

  /// Digits with a separator between groups of three, from the right.
  private static func grouped(_ digits: String, separator: String) -> String {
    let count = digits.utf8.count
    guard count > 3 else { return digits }
    var result = ""
    result.reserveCapacity(count + count / 3 * separator.utf8.count)
    for (offset, character) in digits.enumerated() {
      if offset > 0, (count - offset) % 3 == 0 {
        result += separator
      }
      result.append(character)
    }
    return result
  }

  /// A sign or radix prefix and a body, padded to a width.
  ///
  /// Zeros go between the prefix and the body; spaces go before the prefix, or after the body
  /// when left-justified, which wins over zeros.
  private static func padded(
    _ prefix: String, _ body: String, width: Int?, leftJustify: Bool, zeroPad: Bool
  ) -> String {
    guard let width else { return prefix.isEmpty ? body : prefix + body }
    let length = prefix.count + body.count
    guard length < width else { return prefix + body }
    let fill = width - length
    if leftJustify {
      return prefix + body + String(repeating: " ", count: fill)
    }
    if zeroPad {
      return prefix + String(repeating: "0", count: fill) + body
    }
    return String(repeating: " ", count: fill) + prefix + body
  }
}
