import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

/// Whether opening may create the store is the caller's choice: `.never` creates nothing
/// where there is no store, `.always` changes nothing where there is one.
struct StoreCreationTests {
  @Test func neverCreatesNoFileAndNoDirectory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("shops/downtown/store.sqlite")
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits, creating: .never)
    }
    guard case .missing(let store, let cause) = error else {
      Issue.record("expected .missing, got \(String(describing: error))")
      return
    }
    #expect(store == path)
    #expect(cause.message == "No such file or directory")
    #expect(!FileManager.default.fileExists(atPath: directory.file("shops")))
  }

  @Test func neverLeavesAnEmptyFileEmpty() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits, creating: .never)
    }
    guard case .missing = error else {
      Issue.record("expected .missing, got \(String(describing: error))")
      return
    }
    #expect(error?.detail == "the file holds no store yet")
    #expect(try Data(contentsOf: URL(filePath: path)).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func alwaysCreatesAndThenRefusesLeavingTheStoreUnchanged() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    do {
      let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits, creating: .always)
      #expect(storage.createdStore)
      #expect(try storage.levels() == [10, 10, 10])
      try storage.perform(Fixtures.order("banana-juice")) { levels in
        levels[1] -= 2
        return .done
      }
    }
    let bytes = try Data(contentsOf: URL(filePath: path))
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(
        path: path, fruits: Fixtures.fruits + [Fruit(id: "mango")], creating: .always)
    }
    guard case .alreadyExists(let store, _) = error else {
      Issue.record("expected .alreadyExists, got \(String(describing: error))")
      return
    }
    #expect(store == path)
    #expect(try Data(contentsOf: URL(filePath: path)) == bytes)
    let reopened = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits, creating: .never)
    #expect(!reopened.createdStore)
    #expect(try reopened.levels() == [10, 8, 10])
    #expect(try reopened.initialLevels().keys.sorted() == ["banana", "kiwi", "strawberry"])
  }

  @Test func ifMissingSaysWhetherItCreatedTheStore() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    #expect(try SQLiteStockStorage(path: path, fruits: Fixtures.fruits).createdStore)
    #expect(try !SQLiteStockStorage(path: path, fruits: Fixtures.fruits).createdStore)
  }

  @Test func alwaysCreatesTheStoreInAnEmptyFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits, creating: .always)
    #expect(storage.createdStore)
    #expect(try storage.levels() == [10, 10, 10])
  }
}
