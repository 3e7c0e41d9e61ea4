/// A currency, as ISO 4217 codes it: three capital letters and the number of digits
/// after the decimal point its amounts have.
///
/// ```swift
/// let won = try Currency(code: "KRW")
/// print(won.minorDigits)
/// // 0
/// ```
public struct Currency: Hashable, Sendable {
  /// The code, such as `KRW` or `USD`.
  public let code: String
  /// How many digits follow the decimal point: 0 for `KRW` and `JPY`, 2 for `USD`, 3 for
  /// `KWD`.
  public let minorDigits: Int

  /// A code that is not three capital ASCII letters.
  public struct InvalidCode: Error, Hashable, Sendable {
    /// The text given as a code.
    public let text: String

    /// Creates the error for a text.
    public init(text: String) {
      self.text = text
    }
  }

  /// Creates a currency from its ISO 4217 code.
  ///
  /// Codes this table does not list have two digits after the point, as most currencies
  /// do.
  ///
  /// - Parameter code: Three capital ASCII letters.
  /// - Throws: `InvalidCode` for anything else.
  public init(code: String) throws(InvalidCode) {
    guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
      throw InvalidCode(text: code)
    }
    self.code = code
    minorDigits = Self.minorDigitsByCode[code] ?? 2
  }

  /// The currencies whose amounts do not have two digits after the point.
  private static let minorDigitsByCode: [String: Int] = [
    "BHD": 3, "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "IQD": 3, "ISK": 0, "JOD": 3, "JPY": 0,
    "KMF": 0, "KRW": 0, "KWD": 3, "LYD": 3, "OMR": 3, "PYG": 0, "RWF": 0, "TND": 3, "UGX": 0,
    "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
  ]

  /// The symbol written before an amount, where the currency has a well-known one.
  var symbol: String? {
    switch code {
    case "KRW": "₩"
    case "USD": "$"
    case "EUR": "€"
    case "GBP": "£"
    case "JPY", "CNY": "¥"
    default: nil
    }
  }
}

/// An exact amount of money: a whole number of the currency's smallest unit (won, cents),
/// never floating point.
///
/// ```swift
/// let price = try Money(parsing: "4.50", currency: Currency(code: "USD"))
/// print(price.minorUnits, price.decimalText, price.formatted(language: "en"))
/// // 450 4.50 $4.50
/// ```
public struct Money: Hashable, Sendable {
  /// The amount in the currency's smallest unit: cents for `USD`, won for `KRW`.
  public let minorUnits: Int64
  /// The currency.
  public let currency: Currency

  /// Creates an amount from a count of the currency's smallest unit.
  public init(minorUnits: Int64, currency: Currency) {
    self.minorUnits = minorUnits
    self.currency = currency
  }

  /// Why a decimal text is not an amount of a currency.
  public enum ParseError: Error, Hashable, Sendable {
    /// Not digits with at most one decimal point, such as `4,500` or `-1` or `1e3`.
    case notADecimal
    /// More digits after the point than the currency has, such as `4.505` dollars or
    /// `4500.5` won.
    case tooManyDecimals
    /// Larger than 64 bits of the smallest unit hold.
    case tooLarge
  }

  /// Parses a decimal such as `4500` or `4.50`, exactly.
  ///
  /// - Parameters:
  ///   - text: Digits, and optionally a point followed by at most the currency's minor
  ///     digits; no sign, no grouping, no exponent.
  ///   - currency: The currency of the amount.
  /// - Throws: `ParseError` saying what is wrong.
  public init(parsing text: String, currency: Currency) throws(ParseError) {
    let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty,
      parts.allSatisfy({ $0.allSatisfy { (0x30...0x39).contains($0) } })
    else { throw .notADecimal }
    let fraction = parts.count == 2 ? Array(parts[1]) : []
    if parts.count == 2, fraction.isEmpty { throw .notADecimal }
    guard fraction.count <= currency.minorDigits else { throw .tooManyDecimals }
    let digits =
      Array(whole) + fraction + Array(repeating: 0x30, count: currency.minorDigits - fraction.count)
    var units: Int64 = 0
    for digit in digits {
      let (times, overflowTimes) = units.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int64(digit - 0x30))
      guard !overflowTimes, !overflowSum else { throw .tooLarge }
      units = sum
    }
    self.init(minorUnits: units, currency: currency)
  }

  /// The amount as a plain decimal with the currency's digits: `4500`, `4.50`, `-0.25`.
  public var decimalText: String {
    decimal(grouping: "", point: ".")
  }

  /// The amount formatted for a language: `₩4,500` and `$4.50` in Korean and English,
  /// `4,50 €` in German or French.
  ///
  /// - Parameter language: A BCP 47 tag such as `ko`, `en-US` or `de`.
  public func formatted(language: String) -> String {
    let base = language.split(separator: "-").first.map(String.init) ?? language
    let signed = minorUnits < 0 ? "-" : ""
    if Self.commaDecimalLanguages.contains(base) {
      let number = magnitude.decimal(grouping: base == "fr" ? "\u{202F}" : ".", point: ",")
      return signed + number + "\u{00A0}" + (currency.symbol ?? currency.code)
    }
    let number = magnitude.decimal(grouping: ",", point: ".")
    guard let symbol = currency.symbol else { return signed + currency.code + "\u{00A0}" + number }
    return signed + symbol + number
  }

  /// Languages that write `1.234,50`.
  private static let commaDecimalLanguages: Set<String> = [
    "de", "fr", "es", "it", "pt", "nl", "ru", "tr", "pl", "sv", "da", "nb", "fi", "cs", "id",
    "vi",
  ]

  private var magnitude: Money {
    Money(minorUnits: minorUnits == .min ? .max : abs(minorUnits), currency: currency)
  }

  private func decimal(grouping: String, point: String) -> String {
    let digits = String(minorUnits.magnitude)
    let minor = currency.minorDigits
    let padded = String(repeating: "0", count: max(0, minor + 1 - digits.count)) + digits
    let wholeDigits = Array(padded.dropLast(minor))
    var whole = ""
    for (offset, digit) in wholeDigits.enumerated() {
      if offset > 0, (wholeDigits.count - offset) % 3 == 0 { whole += grouping }
      whole.append(digit)
    }
    let sign = minorUnits < 0 ? "-" : ""
    return minor == 0 ? sign + whole : sign + whole + point + padded.suffix(minor)
  }

  /// The amount times a count, or `nil` when it does not fit in 64 bits.
  public func times(_ count: Int) -> Money? {
    let (product, overflow) = minorUnits.multipliedReportingOverflow(by: Int64(count))
    return overflow ? nil : Money(minorUnits: product, currency: currency)
  }
}
