import JuiceMakerKit
import Testing

/// Prices: exact decimals of a currency, parsed from text and formatted per language.
struct MoneyTests {
  @Test(arguments: [
    ("4500", "KRW", Int64(4500)), ("4.50", "USD", 450), ("4", "USD", 400), ("0.05", "USD", 5),
    ("1.234", "KWD", 1234), ("12", "XYZ", 1200),
  ])
  func decimalsParseExactly(text: String, code: String, units: Int64) throws {
    let money = try Money(parsing: text, currency: Currency(code: code))
    #expect(money.minorUnits == units)
  }

  @Test(arguments: [
    ("4,500", "KRW", Money.ParseError.notADecimal), ("-1", "USD", .notADecimal),
    ("1e3", "USD", .notADecimal), ("4.", "USD", .notADecimal), (".5", "USD", .notADecimal),
    ("", "USD", .notADecimal), ("4500.5", "KRW", .tooManyDecimals),
    ("4.505", "USD", .tooManyDecimals), ("99999999999999999999", "KRW", .tooLarge),
  ])
  func malformedPricesAreRefused(text: String, code: String, error: Money.ParseError) throws {
    let currency = try Currency(code: code)
    #expect(throws: error) { try Money(parsing: text, currency: currency) }
  }

  @Test(arguments: ["krw", "KR", "KRWX", "₩", ""])
  func currencyCodesAreThreeCapitals(code: String) {
    #expect(throws: Currency.InvalidCode(text: code)) { try Currency(code: code) }
  }

  @Test(arguments: [
    ("4500", "KRW", "ko", "₩4,500"), ("4500", "KRW", "en", "₩4,500"),
    ("4.50", "USD", "en", "$4.50"), ("1234567.89", "USD", "en-US", "$1,234,567.89"),
    ("4.50", "EUR", "de", "4,50\u{00A0}€"), ("12.30", "CHF", "en", "CHF\u{00A0}12.30"),
    ("0.05", "USD", "ko", "$0.05"),
  ])
  func amountsAreFormattedForTheLanguage(
    text: String, code: String, language: String, expected: String
  ) throws {
    let money = try Money(parsing: text, currency: Currency(code: code))
    #expect(money.formatted(language: language) == expected)
    #expect(money.decimalText == text)
  }

  @Test func totalsAreExactAndOverflowIsNoTotal() throws {
    let price = try Money(parsing: "0.10", currency: Currency(code: "USD"))
    #expect(price.times(3)?.decimalText == "0.30")
    #expect(Money(minorUnits: .max, currency: price.currency).times(2) == nil)
  }

  @Test func packPricesAreReadInThePacksCurrency() throws {
    let pack = PackSource.bytes(
      Array(
        #"""
        {"currency": "USD",
         "fruits": [{"id": "kiwi"}],
         "juices": [{"id": "kiwi-juice", "price": "4.10",
                     "ingredients": [{"fruit": "kiwi", "count": 1}]}]}
        """#.utf8), name: "pack.json")
    let catalog = try Catalog.load([pack])
    #expect(catalog.currency?.code == "USD")
    #expect(catalog.juices[0].price?.minorUnits == 410)
  }

  @Test(arguments: [
    (
      #"{"currency": "usd", "fruits": [{"id": "kiwi"}]}"#, "currency",
      CatalogError.Reason.invalidCurrency("usd")
    ),
    (
      #"{"fruits": [{"id": "kiwi"}], "juices": [{"id": "k", "price": "4", "ingredients": [{"fruit": "kiwi", "count": 1}]}]}"#,
      "juices[0].price", .priceWithoutCurrency
    ),
    (
      #"{"currency": "KRW", "fruits": [{"id": "kiwi"}], "juices": [{"id": "k", "price": "4.5", "ingredients": [{"fruit": "kiwi", "count": 1}]}]}"#,
      "juices[0].price", .invalidPrice("4.5", currency: "KRW", reason: .tooManyDecimals)
    ),
    (
      #"{"currency": "KRW", "fruits": [{"id": "kiwi"}], "juices": [{"id": "k", "price": 4500, "ingredients": [{"fruit": "kiwi", "count": 1}]}]}"#,
      "juices[0].price", .wrongType(expected: "a price as a string", found: "the number 4500")
    ),
  ])
  func badPricesAreLocated(json: String, path: String, reason: CatalogError.Reason) throws {
    let error = try #require(throws: CatalogError.self) {
      try Catalog.load([.bytes(Array(json.utf8), name: "pack.json")])
    }
    #expect(error.problems == [CatalogError.Problem(file: "pack.json", path: path, reason: reason)])
  }

  @Test func aMenuHasOneCurrency() throws {
    let first = PackSource.bytes(
      Array(#"{"currency": "KRW", "fruits": [{"id": "kiwi"}]}"#.utf8), name: "a.json")
    let second = PackSource.bytes(
      Array(#"{"currency": "USD", "fruits": [{"id": "mango"}]}"#.utf8), name: "b.json")
    let error = try #require(throws: CatalogError.self) { try Catalog.load([first, second]) }
    #expect(
      error.problems == [
        CatalogError.Problem(
          file: "b.json", path: "currency",
          reason: .currencyConflict("USD", first: "KRW", firstFile: "a.json"))
      ])
  }
}
