import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

/// Opening files that are not a usable store: each ends in one clear error, and the
/// file is left as it was.
struct StoreFileTests {
  @Test func newStoreFileIsPrivateToItsOwner() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("shops/downtown/store.sqlite")
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    try storage.perform(Fixtures.order("banana-juice")) { levels in
      levels[1] -= 2
      return .done
    }
    #expect(try mode(path) == 0o600)
    #expect(try mode(path + "-wal") == 0o600)
    #expect(try mode(path + "-shm") == 0o600)
    #expect(try mode(directory.file("shops")) == 0o700)
    #expect(try mode(directory.file("shops/downtown")) == 0o700)
  }

  @Test func existingDirectoryKeepsItsMode() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
    _ = try SQLiteStockStorage(path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    #expect(try mode(directory.path) == 0o755)
  }

  @Test(arguments: [1, 13, 6400])
  func fileThatIsNotSQLiteIsInvalidAndUnchanged(size: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let bytes = Data(String(repeating: "SQLite format 2\n", count: 400).utf8.prefix(size))
    try bytes.write(to: URL(filePath: path))
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    }
    #expect(error?.isInvalid == true)
    #expect(error?.detail == "the file is not an SQLite database")
    #expect(try Data(contentsOf: URL(filePath: path)) == bytes)
  }

  @Test(arguments: [100, 1000, 4096, 6000, 12288])
  func truncatedStoreEndsInAnError(keeping size: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try fillStore(at: path, operations: 400)
    let whole = try Data(contentsOf: URL(filePath: path))
    try #require(whole.count > 2 * 12288)
    let truncated = whole.prefix(size)
    try truncated.write(to: URL(filePath: path))
    let error = #expect(throws: StockStorageError.self) {
      let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
      _ = try storage.levels()
      _ = try storage.journal()
    }
    #expect(error?.isInvalid == true)
    #expect(try Data(contentsOf: URL(filePath: path)) == truncated)
  }

  @Test func unknownSchemaVersionIsInvalid() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try fillStore(at: path, operations: 1)
    try RawDatabase(path: path).execute("PRAGMA user_version = 9")
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    }
    #expect(error?.isInvalid == true)
    #expect(error?.detail.contains("schema version 9") == true)
  }

  @Test(arguments: [
    "PRAGMA application_id = 42; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi');",
    "CREATE TABLE stock (fruit TEXT, level INTEGER); INSERT INTO stock VALUES ('kiwi', 3);",
    "PRAGMA user_version = 7;",
  ])
  func databaseOfAnotherApplicationIsInvalidAndUnchanged(sql: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try RawDatabase(path: path).execute(sql)
    let bytes = try Data(contentsOf: URL(filePath: path))
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    }
    #expect(error?.isInvalid == true)
    #expect(try Data(contentsOf: URL(filePath: path)) == bytes)
  }

  @Test func readOnlyStoreIsUnavailable() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try fillStore(at: path, operations: 1)
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
    let bytes = try Data(contentsOf: URL(filePath: path))
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    }
    #expect(error?.isUnavailable == true)
    #expect(error?.detail == "the store file is read-only")
    #expect(try Data(contentsOf: URL(filePath: path)) == bytes)
  }

  @Test func directoryInPlaceOfTheStoreIsInvalid() throws {
    let directory = try TemporaryDirectory()
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: directory.path, fruits: Fixtures.fruits)
    }
    #expect(error?.isInvalid == true)
  }

  @Test func fileInPlaceOfADirectoryIsUnavailable() throws {
    let directory = try TemporaryDirectory()
    try Data("x".utf8).write(to: URL(filePath: directory.file("shops")))
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: directory.file("shops/store.sqlite"), fruits: Fixtures.fruits)
    }
    #expect(error?.isUnavailable == true)
  }

  @Test func storeLockedPastTheBusyTimeoutIsUnavailable() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try fillStore(at: path, operations: 1)
    let holder = try RawDatabase(path: path)
    try holder.execute("BEGIN EXCLUSIVE")

    let storage = try SQLiteStockStorage(
      path: path, fruits: Fixtures.fruits, busyTimeout: .milliseconds(100))
    #expect(try storage.levels() == [10, 8, 10])
    let error = #expect(throws: StockStorageError.self) {
      try storage.perform(Fixtures.order("banana-juice")) { levels in
        levels[1] -= 2
        return .done
      }
    }
    #expect(error?.isUnavailable == true)
    #expect(error?.cause.code.hasPrefix("SQLITE_BUSY") == true)
    #expect(error?.detail.contains("100 ms") == true)

    // Adding a new fruit's row needs the lock too.
    let opening = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(
        path: path, fruits: Fixtures.fruits + [Fruit(id: "mango")], busyTimeout: .milliseconds(100))
    }
    #expect(opening?.isUnavailable == true)

    try holder.execute("ROLLBACK")
    try storage.perform(Fixtures.order("banana-juice")) { levels in
      levels[1] -= 2
      return .done
    }
    #expect(try storage.levels() == [10, 6, 10])
    #expect(try storage.journal().count == 2)
  }

  // MARK: - Helpers

  private func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  /// Creates a store with `operations` banana orders, then closes it, so the file
  /// holds everything and no `-wal` file is left.
  private func fillStore(at path: String, operations: Int) throws {
    let storage = try SQLiteStockStorage(
      path: path, fruits: Fixtures.fruits.map { Fruit(id: $0.id, initialStock: 10) },
      durability: .normal)
    for index in 0..<operations {
      try storage.perform(Fixtures.order("banana-juice", shop: "shop-\(index)")) { levels in
        if levels[1] >= 2 { levels[1] -= 2 } else { levels[1] += 100 }
        return .done
      }
    }
  }
}
