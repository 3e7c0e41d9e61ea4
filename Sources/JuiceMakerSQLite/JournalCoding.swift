import Foundation
import JuiceMakerKit

/// How journal columns are written as JSON text: changes as an object from fruit id to
/// level delta (`{"banana":-2,"strawberry":-10}`), levels as an object from fruit id to
/// `[before, after]`, and shortages as an array of objects.
///
/// The JSON lets an audit sum the deltas in SQL:
/// `SELECT key, sum(value) FROM journal, json_each(journal.changes) GROUP BY key`.
enum JournalCoding {
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

  /// The changes column of a commit: each changed level's delta,
  /// `{"banana":-2,"strawberry":-10}`.
  ///
  /// - Parameter keys: The JSON key of each fruit, by level index (`key(of:)`).
  static func deltas(_ changes: [StockCommit.Change], keys: [String]) -> String {
    "{"
      + changes.map { keys[$0.index] + String($0.level.after - $0.level.before) }
      .joined(separator: ",") + "}"
  }

  /// The levels column of a commit: each changed level before and after,
  /// `{"banana":[10,8]}`.
  ///
  /// - Parameter keys: The JSON key of each fruit, by level index (`key(of:)`).
  static func pairs(_ changes: [StockCommit.Change], keys: [String]) -> String {
    "{"
      + changes.map {
        keys[$0.index] + "[" + String($0.level.before) + "," + String($0.level.after) + "]"
      }
      .joined(separator: ",") + "}"
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
      guard let fruit = try? Fruit.ID(validating: fruit) else { return nil }
      changes[fruit] = delta
    }
    return changes
  }

  /// Parses the compact form this module writes, with no spaces or escapes,, without
  /// `JSONDecoder`; `nil` for anything else.
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
          let fruit = try? Fruit.ID(
            validating: String(decoding: bytes[keyStart..<keyEnd], as: UTF8.self)),
          changes.updateValue(delta, forKey: fruit) == nil
        else { return nil }
        position = numberEnd == end ? end : numberEnd + 1
        if numberEnd != end, position == end { return nil }
      }
      return changes
    }
  }

  /// The changed levels of a levels column, in the order of `order`, then by id.
  ///
  /// - Returns: The levels, or `nil` when the text is not an object of fruit ids to
  ///   `[before, after]` pairs of integers.
  static func levels(_ text: String, order: [Fruit.ID: Int]) -> [StockChange.Level]? {
    guard let pairs = try? JSONDecoder().decode([String: [Int]].self, from: Data(text.utf8))
    else { return nil }
    var levels: [StockChange.Level] = []
    for (key, pair) in pairs {
      guard pair.count == 2, let fruit = try? Fruit.ID(validating: key) else { return nil }
      levels.append(StockChange.Level(fruit: fruit, before: pair[0], after: pair[1]))
    }
    return levels.sorted {
      (order[$0.fruit] ?? Int.max, $0.fruit) < (order[$1.fruit] ?? Int.max, $1.fruit)
    }
  }

  /// The shortages column: `[{"fruit":"kiwi","needed":10,"available":3}]`.
  static func shortages(_ shortages: [Shortage]) -> String {
    "["
      + shortages.map {
        "{\"fruit\":" + key(of: $0.fruit).dropLast() + ",\"needed\":\($0.needed),\"available\":"
          + "\($0.available)}"
      }.joined(separator: ",") + "]"
  }

  /// The shortages of a shortages column, or `nil` when the text is not one.
  static func shortages(_ text: String) -> [Shortage]? {
    try? JSONDecoder().decode([Shortage].self, from: Data(text.utf8))
  }
}
