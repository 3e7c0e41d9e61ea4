import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

/// Store files for tests: a seeded store, its bytes, and its logical contents.
enum Stores {
  /// The shipped catalog.
  static func shippedCatalog() throws -> Catalog {
    try Catalog.load(from: Paths.recipes)
  }

  /// Creates a store for the shipped catalog at `path` with one journal entry
  /// (`add 1 kiwi`), and closes it, so its file holds everything.
  static func seed(at path: String) throws {
    let catalog = try shippedCatalog()
    let storage = try SQLiteStockStorage(path: path, fruits: catalog.fruits)
    let store = FruitStore(storage: storage)
    _ = try store.add(1, of: "kiwi", by: "seed")
  }

  /// The bytes of a store file and its `-wal`; an absent or empty log reads as `nil`,
  /// since SQLite removes or empties it as connections come and go.
  static func bytes(at path: String) -> [[UInt8]?] {
    [path, path + "-wal"].map { file in
      FileManager.default.contents(atPath: file).flatMap { $0.isEmpty ? nil : [UInt8]($0) }
    }
  }

  /// What a store holds, read through the storage: levels, initial levels and journal.
  struct Contents: Equatable {
    let levels: [Int]
    let initial: [Fruit.ID: Int]
    let journal: [JournalEntry]
  }

  /// Reads a store's contents.
  static func contents(at path: String, catalog: Catalog) throws -> Contents {
    let storage = try SQLiteStockStorage(path: path, fruits: catalog.fruits)
    return Contents(
      levels: try storage.levels(), initial: try storage.initialLevels(),
      journal: try storage.journal(JournalQuery()))
  }
}
