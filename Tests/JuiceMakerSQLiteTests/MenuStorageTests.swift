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

  @Test func aNewStoreHasVersionZeroAndNoFiles() throws {
    let directory = try TemporaryDirectory()
    let storage = try storage(directory.file("store.sqlite"))
    #expect(try storage.menuVersion() == 0)
    #expect(try storage.publishedMenu() == .empty)
    #expect(try storage.menuPublications(limit: nil) == [])
  }

  @Test func publishedFilesReadBackByteForByteInNameOrder() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try storage(path)
    let publication = try #require(
      try storage.publish(
        [Self.tropical, Self.seasonal, Self.catalog], retiring: [], by: "head-office",
        expectingVersion: 0))
    #expect(publication.version == 1)
    #expect(publication.editor == "head-office")
    #expect(publication.published == ["Localizable.xcstrings", "Seasonal.json", "Tropical.json"])
    #expect(publication.retired == [])
    let expected = PublishedMenu(version: 1, files: [Self.catalog, Self.seasonal, Self.tropical])
    #expect(try storage.menuVersion() == 1)
    #expect(try storage.publishedMenu() == expected)
    // Another connection reads the same.
    #expect(try self.storage(path).publishedMenu() == expected)
  }

  @Test func aPublicationReplacesAndRetiresFiles() throws {
    let directory = try TemporaryDirectory()
    let storage = try storage(directory.file("store.sqlite"))
    _ = try #require(
      try storage.publish(
        [Self.seasonal, Self.tropical], retiring: [], by: "a", expectingVersion: 0))
    let replaced = PublishedFile(name: "Seasonal.json", contents: Array("{}".utf8))
    let second = try #require(
      try storage.publish(
        [replaced, Self.catalog], retiring: ["Tropical.json"], by: "b", expectingVersion: 1))
    #expect(second.published == ["Localizable.xcstrings", "Seasonal.json"])
    #expect(second.retired == ["Tropical.json"])
    #expect(
      try storage.publishedMenu() == PublishedMenu(version: 2, files: [Self.catalog, replaced]))
    // A publication that only retires.
    let third = try #require(
      try storage.publish(
        [], retiring: ["Localizable.xcstrings", "Seasonal.json"], by: "c", expectingVersion: 2))
    #expect(third.published == [])
    #expect(try storage.publishedMenu() == PublishedMenu(version: 3, files: []))
  }

  @Test func theLogListsPublicationsNewestFirst() throws {
    let directory = try TemporaryDirectory()
    let storage = try storage(directory.file("store.sqlite"))
    let before = Date()
    let first = try #require(
      try storage.publish([Self.seasonal], retiring: [], by: "downtown", expectingVersion: 0))
    let second = try #require(
      try storage.publish(
        [Self.tropical], retiring: ["Seasonal.json"], by: "airport", expectingVersion: 1))
    let after = Date()
    let log = try storage.menuPublications(limit: nil)
    #expect(log == [second, first])
    #expect(log.map(\.version) == [2, 1])
    #expect(log.map(\.editor) == ["airport", "downtown"])
    #expect(log.map(\.published) == [["Tropical.json"], ["Seasonal.json"]])
    #expect(log.map(\.retired) == [["Seasonal.json"], []])
    #expect(log.allSatisfy { (before.addingTimeInterval(-1)...after).contains($0.date) })
    #expect(try storage.menuPublications(limit: 1) == [second])
    #expect(try storage.menuPublications(limit: 0) == [])
  }

  @Test func aStaleVersionWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let storage = try storage(directory.file("store.sqlite"))
    _ = try #require(
      try storage.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    for stale in [0, 2] {
      #expect(
        try storage.publish(
          [Self.tropical], retiring: ["Seasonal.json"], by: "b", expectingVersion: stale) == nil)
    }
    #expect(try storage.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    #expect(try storage.menuPublications(limit: nil).count == 1)
  }

  @Test func retiringAFileNotInTheLayerWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let storage = try storage(directory.file("store.sqlite"))
    _ = try #require(
      try storage.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    #expect(
      try storage.publish(
        [Self.tropical], retiring: ["Seasonal.json", "Unknown.json"], by: "b",
        expectingVersion: 1) == nil)
    #expect(try storage.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    #expect(try storage.menuPublications(limit: nil).count == 1)
  }

  @Test(
    arguments: [
      ([""], []), (["a\nb.json"], []), (["a\0.json"], []), (["A.json", "A.json"], []),
      (["A.json"], ["A.json"]),
    ] as [([String], [String])])
  func namesNoPublicationCanHoldAreRefused(published: [String], retired: [String]) throws {
    let directory = try TemporaryDirectory()
    let storage = try storage(directory.file("store.sqlite"))
    let error = #expect(throws: StockStorageError.self) {
      try storage.publish(
        published.map { PublishedFile(name: $0, contents: [1]) }, retiring: retired, by: "a",
        expectingVersion: 0)
    }
    #expect(error?.isInvalid == true)
    #expect(error?.cause.purpose == "publishing the menu")
    #expect(try storage.publishedMenu() == .empty)
  }

  @Test func anotherConnectionSeesAPublicationAndIsWokenByIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let publisher = try storage(path)
    let watcher = try storage(path)
    // The first call notes the store's state.
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
    #expect(try watcher.publishedMenu().files == [Self.seasonal])
  }

  @Test func twoConnectionsPublishingAtOnceCannotBothPass() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storages = try (0..<4).map { _ in try storage(path) }
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
    #expect(try storages[0].menuVersion() == 1)
    #expect(try storages[0].publishedMenu().files.count == 1)
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
