import Foundation
import JuiceMakerKit

/// Finds the localization fixtures and the shipped catalog relative to this source file, so
/// nothing depends on resource bundling.
enum LocalizationFixtures {
  /// `Tests/JuiceMakerKitTests/`.
  static let testsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Localization/
    .deletingLastPathComponent()  // JuiceMakerKitTests/

  /// `Tests/JuiceMakerKitTests/Fixtures/Localization/`.
  static let directory =
    testsDirectory
    .appendingPathComponent("Fixtures", isDirectory: true)
    .appendingPathComponent("Localization", isDirectory: true)

  /// The repository's `Localization/` directory, holding the shipped catalog.
  static let shippedDirectory =
    testsDirectory
    .deletingLastPathComponent()  // Tests/
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("Localization", isDirectory: true)

  /// A fixture file or directory, such as `Pack/Tropical.xcstrings`.
  static func url(_ path: String) -> URL {
    directory.appendingPathComponent(path)
  }

  /// The shipped catalog, `Localization/*.xcstrings`.
  static func shippedCatalog() throws -> StringCatalog {
    try StringCatalog(directory: shippedDirectory)
  }

  /// A catalog from a fixture file.
  static func catalog(_ path: String) throws -> StringCatalog {
    try StringCatalog(contentsOf: [url(path)])
  }

  /// A catalog from inline JSON.
  static func catalog(json: String, fileName: String = "Inline.xcstrings") throws -> StringCatalog {
    try StringCatalog(data: Data(json.utf8), fileName: fileName)
  }

  /// A catalog with plain translated values, by key and then by language.
  static func catalog(values: [String: [String: String]]) throws -> StringCatalog {
    let strings = values.mapValues { localizations in
      [
        "localizations": localizations.mapValues { value in
          ["stringUnit": ["state": "translated", "value": value]]
        }
      ]
    }
    let object: [String: Any] = ["sourceLanguage": "en", "version": "1.0", "strings": strings]
    return try StringCatalog(
      data: JSONSerialization.data(withJSONObject: object), fileName: "Inline.xcstrings")
  }

  /// The fruit of the shipped recipes: id, English singular and plural, Korean.
  static let shippedFruit: [(id: String, one: String, other: String, korean: String)] = [
    ("strawberry", "strawberry", "strawberries", "딸기"),
    ("banana", "banana", "bananas", "바나나"),
    ("pineapple", "pineapple", "pineapples", "파인애플"),
    ("kiwi", "kiwi", "kiwis", "키위"),
    ("mango", "mango", "mangoes", "망고"),
  ]

  /// The juice of the shipped recipes: id, English, Korean.
  static let shippedJuice: [(id: String, english: String, korean: String)] = [
    ("strawberry-juice", "Strawberry Juice", "딸기쥬스"),
    ("banana-juice", "Banana Juice", "바나나쥬스"),
    ("kiwi-juice", "Kiwi Juice", "키위쥬스"),
    ("pineapple-juice", "Pineapple Juice", "파인애플쥬스"),
    ("strawberry-banana-juice", "Strawberry Banana Juice", "딸바쥬스"),
    ("mango-juice", "Mango Juice", "망고쥬스"),
    ("mango-kiwi-juice", "Mango Kiwi Juice", "망키쥬스"),
  ]
}
