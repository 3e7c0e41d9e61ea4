import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

struct SQLiteStockStorageTests {
  @Test func newStoreStartsWithInitialStock() throws {
    let directory = try TemporaryDirectory()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    #expect(storage.fruits == ["strawberry", "banana", "kiwi"])
    #expect(try storage.levels() == [10, 10, 10])
    #expect(try storage.journal().isEmpty)
    #expect(try storage.initialLevels() == ["strawberry": 10, "banana": 10, "kiwi": 10])
  }

  @Test func levelsSurviveReopening() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    do {
      let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
      try storage.perform(Fixtures.order("banana-juice")) { levels in
        levels[1] -= 2
        return .done
      }
    }
    let reopened = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    #expect(try reopened.levels() == [10, 8, 10])
    #expect(try reopened.journal().count == 1)
  }

  @Test func performChangesLevelsAndJournalsTheDeltas() throws {
    let directory = try TemporaryDirectory()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    let before = Date()
    let operation = Fixtures.order("strawberry-banana-juice")
    let receipt = try storage.perform(operation) { levels in
      levels[0] -= 10
      levels[1] -= 1
      return .done
    }
    #expect(!receipt.replayed)
    #expect(try storage.levels() == [0, 9, 10])
    let entries = try storage.journal()
    let entry = try #require(entries.first)
    #expect(entries == [receipt.entry])
    #expect(entry.operation == operation)
    #expect(entry.outcome == .done)
    #expect(
      entry.changes == [
        StockChange.Level(fruit: "strawberry", before: 10, after: 0),
        StockChange.Level(fruit: "banana", before: 10, after: 9),
      ])
    #expect(abs(entry.date.timeIntervalSince(before)) < 60)
  }

  @Test func journalColumnsAreCompactJSONInTouchedOrder() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    try storage.perform(Fixtures.order("strawberry-banana-juice")) { levels in
      levels[0] -= 10
      levels[1] -= 1
      return .done
    }
    _ = try storage.perform(Fixtures.order("kiwi-juice"), touching: [2]) { levels in
      levels[2] -= 3
      return .done
    }
    try storage.perform(Fixtures.order("banana-juice")) { _ in .done }
    #expect(
      try RawDatabase(path: path).rows("SELECT changes FROM journal ORDER BY sequence") == [
        [#"[["strawberry",10,0],["banana",10,9]]"#], [#"[["kiwi",10,7]]"#], ["[]"],
      ])
  }

  @Test func refusedOperationJournalsNoChange() throws {
    let directory = try TemporaryDirectory()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    let operation = StockOperation(editor: "store", action: .remove("kiwi", count: 11))
    let shortage = Shortage(fruit: "kiwi", needed: 11, available: 10)
    try storage.perform(operation) { levels in
      levels[2] -= 11
      return .refused([shortage])
    }
    #expect(try storage.levels() == [10, 10, 10])
    let entry = try #require(try storage.journal().first)
    #expect(entry.operation == operation)
    #expect(entry.outcome == .refused([shortage]))
    #expect(entry.changes.isEmpty)
  }

  @Test func levelBelowZeroRollsBackEverything() throws {
    let directory = try TemporaryDirectory()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    let error = #expect(throws: StockStorageError.self) {
      try storage.perform(Fixtures.order("kiwi-juice")) { levels in
        levels[0] -= 1
        levels[2] -= 11
        return .done
      }
    }
    #expect(error?.isInvalid == true)
    #expect(try storage.levels() == [10, 10, 10])
    #expect(try storage.journal().isEmpty)
  }

  @Test func journalIsNewestFirstAndLimited() throws {
    let directory = try TemporaryDirectory()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    for count in 1...5 {
      let operation = StockOperation(editor: "store", action: .add("kiwi", count: count))
      try storage.perform(operation) { levels in
        levels[2] += count
        return .done
      }
    }
    let all = try storage.journal()
    #expect(all.map(\.operation.action.count) == [5, 4, 3, 2, 1])
    #expect(all.map(\.deltas) == [5, 4, 3, 2, 1].map { ["kiwi": $0] })
    #expect(all.map(\.sequence) == all.map(\.sequence).sorted(by: >))
    #expect(
      try storage.journal(JournalQuery(limit: 2)).map(\.operation.action.count) == [5, 4])
    #expect(try storage.journal(JournalQuery(limit: 0)).isEmpty)
    #expect(try storage.levels() == [10, 10, 25])
  }

  @Test func fruitAddedLaterAppearsWithItsInitialStock() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    do {
      let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
      try storage.perform(Fixtures.order("banana-juice")) { levels in
        levels[1] -= 2
        return .done
      }
    }
    let mango = Fruit(id: "mango", initialStock: 7)
    let storage = try SQLiteStockStorage(path: path, fruits: [mango] + Fixtures.fruits)
    #expect(storage.fruits == ["mango", "strawberry", "banana", "kiwi"])
    #expect(try storage.levels() == [7, 10, 8, 10])
    #expect(try storage.initialLevels()["mango"] == 7)
  }

  @Test func droppedFruitIsHiddenAndReturnsWithItsOldLevel() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    do {
      let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
      try storage.perform(Fixtures.order("kiwi-juice")) { levels in
        levels[2] -= 3
        return .done
      }
    }
    do {
      let withoutKiwi = try SQLiteStockStorage(
        path: path, fruits: [Fruit(id: "banana", initialStock: 99)])
      #expect(withoutKiwi.fruits == ["banana"])
      #expect(try withoutKiwi.levels() == [10])
      #expect(try withoutKiwi.initialLevels() == ["strawberry": 10, "banana": 10, "kiwi": 10])
    }
    let withKiwi = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    #expect(try withKiwi.levels() == [10, 10, 7])
  }

  @Test func storagesOnOneFileSeeEachOthersOperations() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let first = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let second = try SQLiteStockStorage(path: path, fruits: Array(Fixtures.fruits.reversed()))
    try first.perform(Fixtures.order("kiwi-juice")) { levels in
      levels[2] -= 3
      return .done
    }
    #expect(try second.levels() == [7, 10, 10])
    let seen = try second.perform(Fixtures.order("kiwi-juice", shop: "airport")) { levels in
      levels[0] -= 3
      return .done
    }
    #expect(seen.entry.changes == [StockChange.Level(fruit: "kiwi", before: 7, after: 4)])
    #expect(try first.levels() == [10, 10, 4])
    #expect(try first.journal().map(\.operation.editor) == ["airport", "downtown"])
  }

  @Test func fruitGivenTwiceIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let error = #expect(throws: StockStorageError.self) {
      try SQLiteStockStorage(path: path, fruits: Fixtures.fruits + [Fruit(id: "kiwi")])
    }
    #expect(error?.isInvalid == true)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test(arguments: SQLiteStockStorage.Durability.allCases)
  func everyDurabilityKeepsOperations(durability: SQLiteStockStorage.Durability) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    do {
      let storage = try SQLiteStockStorage(
        path: path, fruits: Fixtures.fruits, durability: durability)
      #expect(storage.durability == durability)
      try storage.perform(Fixtures.order("banana-juice")) { levels in
        levels[1] -= 2
        return .done
      }
    }
    #expect(try SQLiteStockStorage(path: path, fruits: Fixtures.fruits).levels() == [10, 8, 10])
  }
}
