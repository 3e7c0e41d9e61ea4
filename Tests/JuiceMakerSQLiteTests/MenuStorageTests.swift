import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Synchronization
import Testing

/// The menu layer of an SQLite store: files published, replaced and retired, versioned
/// and logged, shared by every connection to the file.
struct MenuStorageTests {
  /// A pack's bytes, with bytes no text holds, so a blob that went through text fails.
  static let seasonal = PublishedFile(
    name: "Seasonal.json", contents: Array(#"{"fruits": []}"#.utf8) + [0, 0xFF, 0x0A, 0x80])
  static let tropical = PublishedFile(name: "Tropical.json", contents: Array("[1]".utf8))
  static let catalog = PublishedFile(name: "Localizable.xcstrings", contents: [])

  private func storage(_ path: String) throws -> SQLiteStockStorage {
    try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
  }

  @Test func aStoreOpenedForNoFruitsReadsAndPublishesTheMenuAndLeavesTheStockAlone() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let shop = try storage(path)
    try shop.perform(Fixtures.order("kiwi-juice")) { levels in
      levels[2] -= 3
      return .done
    }
    _ = try #require(
      try shop.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    let stock = "SELECT id, fruit, level, initial FROM stock ORDER BY id"
    let rows = try RawDatabase(path: path).rows(stock)

    let menu = try SQLiteStockStorage(path: path, fruits: [], creating: .never)
    #expect(!menu.createdStore)
    #expect(menu.fruits == [])
    #expect(try menu.levels() == [])
    #expect(try menu.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    _ = try #require(
      try menu.publish([Self.tropical], retiring: [], by: "b", expectingVersion: 1))
    #expect(try RawDatabase(path: path).rows(stock) == rows)
    #expect(try shop.levels() == [10, 10, 7])
    #expect(try shop.menuVersion() == 2)
    #expect(try shop.journal().count == 1)

    // No store is made for a path that holds none.
    let missing = directory.file("missing.sqlite")
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: missing, fruits: [], creating: .never)
    }
    guard case .missing = error else {
      Issue.record("expected .missing, got \(String(describing: error))")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test func aVersionFourStoreGainsAnEmptyMenuLayer() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let shop = try storage(path)
    try shop.perform(Fixtures.order("kiwi-juice")) { levels in
      levels[2] -= 3
      return .done
    }
    // The store as version 4 left it: no menu tables, four steps recorded.
    try RawDatabase(path: path).execute(
      """
      DROP TABLE menu_file; DROP TABLE menu_publication;
      DELETE FROM migration WHERE version = 5; PRAGMA user_version = 4;
      """)
    let migrated = try storage(path)
    #expect(try migrated.levels() == [10, 10, 7])
    #expect(try migrated.publishedMenu() == .empty)
    _ = try #require(
      try migrated.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    #expect(try migrated.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    let steps = try RawDatabase(path: path).rows("SELECT version, name FROM migration")
    #expect(steps.map { $0[0] } == ["1", "2", "3", "4", "5"])
    #expect(try RawDatabase(path: path).rows("PRAGMA user_version") == [["5"]])
  }

  @Test func aDamagedLogOrFileIsInvalid() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try storage(path)
    _ = try #require(
      try storage.publish(
        [Self.seasonal, Self.tropical], retiring: [], by: "a", expectingVersion: 0))
    try RawDatabase(path: path).execute(
      "UPDATE menu_publication SET published = 'Tropical.json' || char(10) || 'Seasonal.json'")
    let log = #expect(throws: StockStorageError.self) {
      try storage.menuPublications(limit: nil)
    }
    #expect(log?.isInvalid == true)
    try RawDatabase(path: path).execute("UPDATE menu_file SET version = 7")
    let files = #expect(throws: StockStorageError.self) { try storage.publishedMenu() }
    #expect(files?.isInvalid == true)
  }

  @Test func aBackupKeepsTheMenuLayer() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try storage(path)
    _ = try #require(
      try storage.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    _ = try #require(
      try storage.publish([Self.tropical], retiring: [], by: "b", expectingVersion: 1))
    let backup = directory.file("backup.sqlite")
    try SQLiteStockStorage.backup(store: path, to: backup)
    let restored = try SQLiteStockStorage.restore(
      backup: backup, to: directory.file("restored.sqlite"), fruits: Fixtures.fruits)
    #expect(try restored.publishedMenu() == storage.publishedMenu())
    #expect(try restored.menuPublications(limit: nil) == storage.menuPublications(limit: nil))
  }
}
