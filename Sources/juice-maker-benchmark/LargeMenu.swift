import Foundation
import JuiceMakerKit

/// A generated menu of the issue's size: 10,000 juices over 1,000 fruits, with a string
/// catalog of about 2 MB naming every juice and fruit in English and Korean, written into a
/// temporary directory as a recipes directory and a localization directory.
///
/// - `recipes/fruits.json` and `recipes/juices.json` replace the built-in packs of the same
///   names, so the menu is this one alone.
/// - `localization/Large.xcstrings` adds `fruit.<id>` (English with plural variations, as the
///   shipped fruits have) and `juice.<id>` to the built-in catalogs, one key per line.
///
/// Each juice takes 1 to 4 distinct fruits, 1 to 5 of each, drawn from a fixed seed. Every
/// fruit starts with a billion in stock, so no timed order is refused.
struct LargeMenu: Sendable {
  static let juiceCount = 10_000
  static let fruitCount = 1_000

  let root: URL
  var recipes: URL { root.appendingPathComponent("recipes", isDirectory: true) }
  var localization: URL { root.appendingPathComponent("localization", isDirectory: true) }
  /// The catalog's size in bytes.
  private(set) var catalogBytes = 0

  /// The id of the `index`th juice.
  static func juiceID(_ index: Int) -> String { "juice-" + padded(index) }

  /// Writes the menu.
  ///
  /// - Throws: `BenchmarkError.failed` when a file cannot be written.
  static func make() throws(BenchmarkError) -> LargeMenu {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-large-\(ProcessInfo.processInfo.processIdentifier)",
      isDirectory: true)
    var menu = LargeMenu(root: root)
    do {
      try? FileManager.default.removeItem(at: root)
      for directory in [menu.recipes, menu.localization] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      }
      let fruits = (0..<fruitCount).map { "fruit-" + padded($0) }
      let fruitList = fruits.map { "{\"id\":\"\($0)\",\"stock\":1000000000}" }
      try write(
        "{\"fruits\":[\n" + fruitList.joined(separator: ",\n") + "\n]}\n",
        to: menu.recipes.appendingPathComponent("fruits.json"))
      var random = SplitMix64(seed: 1_000)
      var firstFruits: [Int] = []
      let juices = (0..<juiceCount).map { index in
        var chosen: [Int] = []
        let size = Int(random.next() % 4) + 1
        while chosen.count < size {
          let fruit = Int(random.next() % UInt64(fruitCount))
          if !chosen.contains(fruit) { chosen.append(fruit) }
        }
        firstFruits.append(chosen[0])
        let ingredients = chosen.map {
          "{\"fruit\":\"\(fruits[$0])\",\"count\":\(random.next() % 5 + 1)}"
        }
        return
          "{\"id\":\"\(juiceID(index))\",\"ingredients\":[\(ingredients.joined(separator: ","))]}"
      }
      try write(
        "{\"juices\":[\n" + juices.joined(separator: ",\n") + "\n]}\n",
        to: menu.recipes.appendingPathComponent("juices.json"))
      var keys: [String] = []
      for index in 0..<fruitCount {
        let english = englishWords[index % englishWords.count]
        keys.append(
          entry(
            "fruit.\(fruits[index])", comment: "Name of a fruit; English varies by the count.",
            english: "{\"variations\":{\"plural\":{"
              + "\"one\":{\"stringUnit\":{\"state\":\"translated\",\"value\":\"\(english) \(index)\"}},"
              + "\"other\":{\"stringUnit\":{\"state\":\"translated\",\"value\":\"\(english)s \(index)\"}}"
              + "}}}",
            korean: koreanName(index)))
      }
      for index in 0..<juiceCount {
        let fruit = firstFruits[index]
        let english = englishWords[fruit % englishWords.count].capitalized
        keys.append(
          entry(
            "juice.\(juiceID(index))", comment: nil,
            english: unit("\(english) Juice \(index)"),
            korean: koreanName(fruit) + "쥬스 \(index)"))
      }
      let catalog =
        "{\"sourceLanguage\":\"en\",\"version\":\"1.0\",\"strings\":{\n"
        + keys.joined(separator: ",\n") + "\n}}\n"
      menu.catalogBytes = catalog.utf8.count
      try write(catalog, to: menu.localization.appendingPathComponent("Large.xcstrings"))
    } catch {
      throw .failed("cannot write the large menu in \(root.path): \(error)")
    }
    return menu
  }

  /// Deletes the menu.
  func remove() {
    try? FileManager.default.removeItem(at: root)
  }

  // MARK: - Writing

  private static let englishWords = [
    "apple", "pear", "plum", "peach", "lime", "lemon", "melon", "grape", "fig", "date",
  ]
  private static let syllables = Array("가나다라마바사아자차카타파하고노도로모보소오조초")

  /// Three syllables, different for each index below 24³.
  private static func koreanName(_ index: Int) -> String {
    let count = syllables.count
    return String([
      syllables[index / (count * count) % count], syllables[index / count % count],
      syllables[index % count],
    ])
  }

  private static func padded(_ index: Int) -> String {
    String(String(index + 100_000).dropFirst())
  }

  private static func unit(_ value: String) -> String {
    "{\"stringUnit\":{\"state\":\"translated\",\"value\":\"\(value)\"}}"
  }

  private static func entry(_ key: String, comment: String?, english: String, korean: String)
    -> String
  {
    "\"\(key)\":{" + (comment.map { "\"comment\":\"\($0)\"," } ?? "")
      + "\"localizations\":{\"en\":\(english),\"ko\":\(unit(korean))}}"
  }

  private static func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }
}
