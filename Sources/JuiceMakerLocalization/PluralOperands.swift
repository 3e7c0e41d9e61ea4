/// The CLDR plural operands of a number: what plural rules look at.
///
/// A whole number has no visible fraction digits. A `Double` is read as its shortest decimal
/// form, as ICU's `select(double)` behind Apple's runtime reads it: `1.0` is the whole number
/// 1, `1.5` has one visible fraction digit 5, `0.25` two, 25. The compact-exponent operands
/// `c` and `e` are 0, since catalogs are rendered without compact notation.
package struct PluralOperands: Sendable, Hashable {
  /// The integer digits of the absolute value (`i`). A magnitude of 10¹⁸ or more is kept as
  /// 10¹⁸ plus its last 18 digits, so that every remainder a rule takes stays exact and no
  /// comparison with a small number matches.
  package let i: Int
  /// The number of visible fraction digits, with trailing zeros (`v`).
  package let v: Int
  /// The number of visible fraction digits, without trailing zeros (`w`).
  package let w: Int
  /// The visible fraction digits, with trailing zeros, as a number (`f`).
  package let f: Int
  /// The visible fraction digits, without trailing zeros, as a number (`t`).
  package let t: Int
  /// The compact decimal exponent (`c`, `e`): always 0.
  package let e: Int
  /// Whether the number is finite; an infinite or NaN one takes `other` in every language.
  package let isFinite: Bool

  /// Whether the absolute value `n` is a whole number, so that `n` equals `i`.
  var isWhole: Bool { f == 0 }

  /// Whether the number is zero.
  var isZero: Bool { isFinite && i == 0 && f == 0 }

  private init(i: Int, fraction: Substring, isFinite: Bool = true) {
    self.i = i
    let trimmed = fraction.reversed().drop { $0 == "0" }
    v = fraction.count
    w = trimmed.count
    // At most 17 significant digits, so the digits after leading zeros fit.
    f = Int(fraction.drop { $0 == "0" }.prefix(18)) ?? 0
    t = Int(String(trimmed.reversed()).drop { $0 == "0" }.prefix(18)) ?? 0
    e = 0
    self.isFinite = isFinite
  }

  /// The operands of a whole number.
  ///
  /// - Parameter number: The number.
  package init(_ number: Int) {
    self.init(whole: Self.integerDigits(number.magnitude))
  }

  /// The operands of a whole number's integer digits: no fraction digits to read.
  private init(whole: Int) {
    i = whole
    v = 0
    w = 0
    f = 0
    t = 0
    e = 0
    isFinite = true
  }

  /// The operands of a floating-point number, read as its shortest decimal form.
  ///
  /// ```swift
  /// PluralOperands(1.0)   // i 1, v 0
  /// PluralOperands(2.50)  // i 2, v 1, f 5
  /// PluralOperands(1e-5)  // i 0, v 5, f 1
  /// ```
  ///
  /// - Parameter number: The number.
  package init(_ number: Double) {
    guard number.isFinite else {
      self.init(i: 0, fraction: "", isFinite: false)
      return
    }
    let magnitude = number.magnitude
    if magnitude.rounded(.towardZero) == magnitude {
      // Whole: exact below 2⁶⁴, and every larger double is a multiple of 2¹¹.
      let whole =
        magnitude < 18_446_744_073_709_551_616
        ? UInt(magnitude) : UInt(magnitude.truncatingRemainder(dividingBy: 1e18)) + Self.huge
      self.init(whole: Self.integerDigits(whole))
      return
    }
    // Not whole, so below 2⁵³: Swift writes it as `123.456` or, when tiny, `1.2e-05`.
    let text = magnitude.description
    if let exponentIndex = text.firstIndex(of: "e"),
      let exponent = Int(text[text.index(after: exponentIndex)...]), exponent < 0
    {
      let digits = text[..<exponentIndex].filter { $0 != "." }
      let fraction = String(repeating: "0", count: -exponent - 1) + digits
      self.init(i: 0, fraction: Substring(fraction))
      return
    }
    let point = text.firstIndex(of: ".") ?? text.endIndex
    let fraction = point < text.endIndex ? text[text.index(after: point)...] : ""
    self.init(i: Int(text[..<point]) ?? 0, fraction: fraction)
  }

  /// The largest `i` kept as is; see ``i``.
  private static let huge: UInt = 1_000_000_000_000_000_000

  private static func integerDigits(_ magnitude: UInt) -> Int {
    Int(magnitude < huge ? magnitude : huge + magnitude % huge)
  }
}
