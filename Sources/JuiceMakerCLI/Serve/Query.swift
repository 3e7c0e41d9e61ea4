import FoundationEssentials
import JuiceMakerCatalog
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

  /// Percent-decodes a query name or value, `+` standing for a space; text with an escape
  /// that is not one, or that is not UTF-8, is kept as written.
  static func decode(_ text: some StringProtocol) -> String {
    let spaced =
      text.contains("+")
      ? String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "+" ? " " : $0 }))
      : String(text)
    return PercentEncoding.decoded(spaced) ?? spaced
  }

  /// Percent-decodes a path segment, where `+` is itself; as written when it is not valid.
  static func decodeSegment(_ text: some StringProtocol) -> String {
    PercentEncoding.decoded(text) ?? String(text)
  }
}

/// Reads an `Accept-Language` header.
enum LanguageChoice {
  /// The header's language ranges, most wanted first; ranges with `q=0` are left out.
  static func ranked(_ header: String) -> [String] {
    var ranges: [(tag: String, weight: Double, order: Int)] = []
    for (order, item) in header.split(separator: ",").enumerated() {
      let parts = item.split(separator: ";")
      guard let tag = parts.first?.trimmingWhitespace(), !tag.isEmpty else {
        continue
      }
      var weight = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        if pair.count == 2, pair[0].trimmingWhitespace() == "q" {
          weight = Double(pair[1].trimmingWhitespace()) ?? 0
        }
      }
      if weight > 0 { ranges.append((tag, weight, order)) }
    }
    return ranges.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }
      .map(\.tag)
  }
}

extension HTTPRequest: HTTPHeaderLookup {}
