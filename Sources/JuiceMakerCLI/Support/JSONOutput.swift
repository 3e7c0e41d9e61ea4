import FoundationEssentials
import JuiceMakerKit
import JuiceMakerPostgres

/// Encodes the documents `--json` prints: one line, keys sorted, so output is stable.
enum JSONOutput {
  static func encode(_ document: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(document) else {
      return #"{"error":"io","message":"the result could not be encoded","ok":false}"# + "\n"
    }
    return escapingDeceptiveFormatting(String(decoding: data, as: UTF8.self)) + "\n"
  }

  /// The document with each bidi control and zero-width character written as a `\uXXXX`
  /// escape: the same JSON value, but one that cannot reorder or hide text on a terminal.
  /// They only occur inside strings, where the escape is valid.
  static func escapingDeceptiveFormatting(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: \.isDeceptiveFormatting) else { return json }
    var escaped = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      if scalar.isDeceptiveFormatting {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped.append(
          contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }
}

/// `{"ok":false,"error":"<code>","message":"…"}`, with the shortages of a refusal.
struct ErrorDocument: Encodable {
  let ok = false
  let error: String
  let message: String
  let shortages: [Shortage]?
  var problems: [String]?

  init(error: CLIError, message: String) {
    self.error = error.code
    self.message = message
    switch error {
    case .outOfStock(let shortages): self.shortages = shortages
    case .notEnoughStock(let shortage): self.shortages = [shortage]
    default: self.shortages = nil
    }
    switch error {
    case .invalidPacks(let catalogError):
      problems = catalogError.problems.map { ConnectionURI.redactingURIs(in: $0.description) }
    case .invalidStrings(let localizationError):
      problems = localizationError.lines.map(ConnectionURI.redactingURIs(in:))
    default:
      problems = nil
    }
  }
}

/// One fruit and its stock, with its minimum and par when it has them, and whether it is
/// at or below its minimum.
struct FruitDocument: Encodable {
  let id: String
  let name: String
  let stock: Int
  let min: Int?
  let par: Int?
  let low: Bool
}

/// The limits `stock limits` set.
struct StockLimitsDocument: Encodable {
  let ok = true
  let fruit: String
  let name: String
  let min: Int
  let par: Int
}

/// `{"fruits":[…]}`.
struct StockDocument: Encodable {
  let fruits: [FruitDocument]
}

/// The result of a stock edit.
struct StockEditDocument: Encodable {
  let ok = true
  let fruit: String
  let name: String
  let stock: Int
  let fruits: [FruitDocument]
}

/// One juice on the menu.
struct JuiceDocument: Encodable {
  let id: String
  let name: String
  let ingredients: [Ingredient]
  let makeable: Int
  /// One juice's price; absent when the pack gives none.
  let price: PriceDocument?
}

/// An exact amount: `{"amount":"4.50","currency":"USD"}`, the amount a decimal string so
/// no reader turns it into a float.
struct PriceDocument: Encodable {
  let amount: String
  let currency: String

  init(_ money: Money) {
    amount = money.decimalText
    currency = money.currency.code
  }
}

/// `{"juices":[…]}`.
struct MenuDocument: Encodable {
  let juices: [JuiceDocument]
}

/// An order made.
struct OrderDocument: Encodable {
  let ok = true
  let juice: String
  let name: String
  let count: Int
  let shop: String
  let requestID: String
  let message: String
  let stock: [String: Int]
  /// One juice's price, and the order's total; absent when the juice has no price.
  let price: PriceDocument?
  let total: PriceDocument?
}
