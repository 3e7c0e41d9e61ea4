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

  @Test func filesArePublishedReplacedRetiredAndLogged() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let storage = try store(uri)
    #expect(try storage.menuVersion() == 0)
    #expect(try storage.publishedMenu() == .empty)
    #expect(try storage.menuPublications(limit: nil) == [])

    let before = Date()
    let first = try #require(
      try storage.publish(
        [Self.tropical, Self.lowercase, Self.seasonal, Self.catalog], retiring: [],
        by: "head-office", expectingVersion: 0))
    #expect(first.version == 1)
    #expect(
      first.published == [
        "Localizable.xcstrings", "Seasonal.json", "Tropical.json", "apple.json",
      ])
    let all = [Self.catalog, Self.seasonal, Self.tropical, Self.lowercase]
    #expect(try storage.publishedMenu() == PublishedMenu(version: 1, files: all))
    // Another storage, on connections of its own, reads the same.
    #expect(try store(uri).publishedMenu() == PublishedMenu(version: 1, files: all))

    let replaced = PublishedFile(name: "Seasonal.json", contents: Array("{}".utf8))
    let second = try #require(
      try storage.publish(
        [replaced], retiring: ["Tropical.json", "apple.json"], by: "airport",
        expectingVersion: 1))
    let after = Date()
    #expect(second.retired == ["Tropical.json", "apple.json"])
    #expect(
      try storage.publishedMenu() == PublishedMenu(version: 2, files: [Self.catalog, replaced]))
    let log = try storage.menuPublications(limit: nil)
    #expect(log == [second, first])
    #expect(log.map(\.editor) == ["airport", "head-office"])
    #expect(log.allSatisfy { (before.addingTimeInterval(-1)...after).contains($0.date) })
    #expect(try storage.menuPublications(limit: 1) == [second])
    #expect(try storage.menuVersion() == 2)
  }

  @Test func aStaleVersionOrAnUnknownNameWritesNothing() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let storage = try store(uri)
    _ = try #require(
      try storage.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    for stale in [0, 2] {
      #expect(
        try storage.publish(
          [Self.tropical], retiring: ["Seasonal.json"], by: "b", expectingVersion: stale) == nil)
    }
    #expect(
      try storage.publish(
        [Self.tropical], retiring: ["Seasonal.json", "Unknown.json"], by: "b",
        expectingVersion: 1) == nil)
    let invalid = #expect(throws: StockStorageError.self) {
      try storage.publish(
        [Self.seasonal], retiring: ["Seasonal.json"], by: "b", expectingVersion: 1)
    }
    guard case .invalid = invalid else {
      Issue.record("expected .invalid, got \(String(describing: invalid))")
      return
    }
    #expect(try storage.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    #expect(try storage.menuPublications(limit: nil).count == 1)
    // The refusals left the connection usable.
    #expect(try storage.levels() == [10, 10, 10])
  }

  @Test func anotherStorageIsWokenByAPublication() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let publisher = try store(uri)
    let watcher = try store(uri)
    // The first call starts listening.
    try watcher.waitForChanges(timeout: .zero)
    let woken = Mutex<ContinuousClock.Instant?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      defer { done.signal() }
      if (try? watcher.waitForChanges(timeout: .seconds(10))) != nil {
        woken.withLock { $0 = .now }
      }
    }.start()
    Thread.sleep(forTimeInterval: 0.2)
    let published = ContinuousClock.now
    _ = try #require(
      try publisher.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    done.wait()
    let when = try #require(woken.withLock { $0 })
    #expect(when - published < .seconds(1))
    #expect(try watcher.menuVersion() == 1)
  }

  @Test func publishersAtOnceCannotBothPass() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let storages = try (0..<4).map { _ in try store(uri) }
    let passed = Mutex(0)
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    for (index, storage) in storages.enumerated() {
      group.enter()
      Thread {
        defer { group.leave() }
        do {
          let file = PublishedFile(name: "Shop\(index).json", contents: [UInt8(index)])
          if try storage.publish([file], retiring: [], by: "\(index)", expectingVersion: 0)
            != nil
          {
            passed.withLock { $0 += 1 }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }.start()
    }
    group.wait()
    #expect(failures.withLock { $0 } == [])
    #expect(passed.withLock { $0 } == 1)
    #expect(try storages[0].publishedMenu().files.count == 1)
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
