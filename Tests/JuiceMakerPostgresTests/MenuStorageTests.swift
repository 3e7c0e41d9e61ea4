import Foundation
import JuiceMakerKit
import Synchronization
import TemporaryPostgres
import Testing

@testable import JuiceMakerPostgres

/// The menu layer of a PostgreSQL store: files published, replaced and retired, versioned
/// and logged, shared by every connection, kept by backups.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct MenuStorageTests {
  static let fruits = [
    Fruit(id: "strawberry", initialStock: 10), Fruit(id: "banana", initialStock: 10),
    Fruit(id: "kiwi", initialStock: 10),
  ]
  /// A pack's bytes, with bytes no text holds, so contents that went through text fail.
  static let seasonal = PublishedFile(
    name: "Seasonal.json", contents: Array(#"{"fruits": []}"#.utf8) + [0, 0xFF, 0x0A, 0x80])
  static let tropical = PublishedFile(name: "Tropical.json", contents: Array("[1]".utf8))
  static let catalog = PublishedFile(name: "Localizable.xcstrings", contents: [])
  /// A name the database's collation may sort elsewhere than its bytes do.
  static let lowercase = PublishedFile(name: "apple.json", contents: Array("{}".utf8))

  private func store(_ uri: String) throws -> PostgresStockStorage {
    try PostgresStockStorage(uri: uri, fruits: Self.fruits)
  }

  @Test func aStoreOpenedForNoFruitsReadsAndPublishesTheMenuAndLeavesTheStockAlone() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let shop = try store(uri)
    _ = try shop.perform(
      StockOperation(editor: "downtown", action: .remove("kiwi", count: 3)), touching: [2]
    ) { levels in
      levels[2] -= 3
      return .done
    }
    _ = try #require(
      try shop.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    let audit = try Audit(uri)
    let stock = "SELECT id, fruit, level, initial, xmin::text FROM stock ORDER BY id"
    func rows() throws -> [[String]] {
      let result = try audit.connection.execute(stock)
      return (0..<result.count).map { row in (0..<5).map { result.text(row, $0) ?? "" } }
    }
    let before = try rows()

    let menu = try PostgresStockStorage(uri: uri, fruits: [], creating: .never)
    #expect(!menu.createdStore)
    #expect(menu.fruits == [])
    #expect(try menu.levels() == [])
    #expect(try menu.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    _ = try #require(
      try menu.publish([Self.tropical], retiring: [], by: "b", expectingVersion: 1))
    // Not a row written, not even locked (xmin is the row version's writer).
    #expect(try rows() == before)
    #expect(try shop.levels() == [10, 10, 7])
    #expect(try shop.menuVersion() == 2)

    // An empty database stays empty.
    let (_, empty, _) = try Postgres.newDatabase()
    let error = #expect(throws: StockStorageError.self) {
      try PostgresStockStorage(uri: empty, fruits: [], creating: .never)
    }
    guard case .missing = error else {
      Issue.record("expected .missing, got \(String(describing: error))")
      return
    }
    #expect(try Audit(empty).tables() == [])
  }

  @Test func aVersionThreeStoreGainsAnEmptyMenuLayer() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    _ = try store(uri)
    // The store as version 3 left it.
    try Audit(uri).connection.execute(
      """
      DROP TABLE menu_file, menu_publication;
      DELETE FROM juice_maker_migrations WHERE version = 4;
      UPDATE juice_maker_meta SET value = '3' WHERE key = 'schema_version';
      """)
    let migrated = try store(uri)
    #expect(try migrated.publishedMenu() == .empty)
    _ = try #require(
      try migrated.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    #expect(try migrated.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    let versions = try Audit(uri).connection.execute(
      "SELECT version FROM juice_maker_migrations ORDER BY version")
    #expect((0..<versions.count).compactMap { versions.integer($0, 0) } == [1, 2, 3, 4])
  }

  @Test func aDamagedLogOrFileIsInvalid() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let storage = try store(uri)
    _ = try #require(
      try storage.publish(
        [Self.seasonal, Self.tropical], retiring: [], by: "a", expectingVersion: 0))
    let audit = try Audit(uri)
    try audit.connection.execute(
      "UPDATE menu_publication SET published = 'Tropical.json' || chr(10) || 'Seasonal.json'")
    let log = #expect(throws: StockStorageError.self) {
      try storage.menuPublications(limit: nil)
    }
    guard case .invalid = log else {
      Issue.record("expected .invalid, got \(String(describing: log))")
      return
    }
    try audit.connection.execute("UPDATE menu_file SET version = 7")
    let files = #expect(throws: StockStorageError.self) { try storage.publishedMenu() }
    guard case .invalid = files else {
      Issue.record("expected .invalid, got \(String(describing: files))")
      return
    }
  }

  @Test func aBackupKeepsTheMenuLayerAndAnOlderBackupRestoresWithoutOne() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let storage = try store(uri)
    _ = try storage.perform(
      StockOperation(editor: "downtown", action: .remove("kiwi", count: 3)), touching: [2]
    ) { levels in
      levels[2] -= 3
      return .done
    }
    _ = try #require(
      try storage.publish(
        [Self.seasonal, Self.catalog], retiring: [], by: "a", expectingVersion: 0))
    let published = PublishedFile(
      name: "Big.json", contents: (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    _ = try #require(
      try storage.publish(
        [Self.tropical, published], retiring: ["Localizable.xcstrings"], by: "b\nc",
        expectingVersion: 1))
    let directory = FileManager.default.temporaryDirectory.appending(
      path: "juice-maker-menu-backup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appending(path: "store.jsonl").path
    try PostgresStockStorage.export(uri: uri, to: file)

    let (_, target, _) = try Postgres.newDatabase()
    let restored = try PostgresStockStorage.restore(from: file, uri: target, fruits: Self.fruits)
    #expect(try restored.publishedMenu() == storage.publishedMenu())
    #expect(try restored.menuPublications(limit: nil) == storage.menuPublications(limit: nil))
    #expect(try restored.levels() == [10, 10, 7])
    // The restored log goes on.
    _ = try #require(try restored.publish([], retiring: ["Big.json"], by: "c", expectingVersion: 2))

    // An export written before the menu layer: schema version 3, no menu lines.
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.first?.replacing(" ", with: "") == #"["juice-maker-export",1,4]"#)
    let older =
      ([#"["juice-maker-export", 1, 3]"#]
      + lines.dropFirst().filter { !$0.hasPrefix(#"["menu_"#) }.map(String.init))
      .joined(separator: "\n") + "\n"
    let olderFile = directory.appending(path: "older.jsonl").path
    try older.write(toFile: olderFile, atomically: false, encoding: .utf8)
    let (_, oldTarget, _) = try Postgres.newDatabase()
    let fromOlder = try PostgresStockStorage.restore(
      from: olderFile, uri: oldTarget, fruits: Self.fruits)
    #expect(try fromOlder.publishedMenu() == .empty)
    #expect(try fromOlder.levels() == [10, 10, 7])
    #expect(try fromOlder.journal(JournalQuery()) == storage.journal(JournalQuery()))
  }
}
