import Foundation
import JuiceMakerHTTP

/// A request's query parameters, percent-decoded; the first of a repeated name counts.
struct Query {
  private var values: [String: String] = [:]

  init(_ parameters: [(name: String, value: String)]) {
    for (name, value) in parameters {
      let name = Self.decode(name)
      if values[name] == nil { values[name] = Self.decode(value) }
    }
  }

  subscript(name: String) -> String? { values[name] }

  /// Percent-decodes a path segment or a query value (`+` is a space in a query); an
  /// escape that is not one, or bytes that are not UTF-8, are kept as written.
  static func decode(_ text: some StringProtocol) -> String {
    guard text.contains("%") || text.contains("+") else { return String(text) }
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
      if byte == UInt8(ascii: "%"), iterator.count >= 2,
        let high = hex(iterator[iterator.startIndex]),
        let low = hex(iterator[iterator.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        iterator = iterator.dropFirst(2)
      } else if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else {
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self) ?? String(text)
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// Reads an `Accept-Language` header.
enum LanguageChoice {
  /// The header's language ranges, most wanted first; ranges with `q=0` are left out.
  static func ranked(_ header: String) -> [String] {
    var ranges: [(tag: String, weight: Double, order: Int)] = []
    for (order, item) in header.split(separator: ",").enumerated() {
      let parts = item.split(separator: ";")
      guard let tag = parts.first?.trimmingCharacters(in: .whitespaces), !tag.isEmpty else {
        continue
      }
      var weight = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "q" {
          weight = Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
      if weight > 0 { ranges.append((tag, weight, order)) }
    }
    return ranges.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }
      .map(\.tag)
  }
}

extension HTTPRequest: HTTPHeaderLookup {}
