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
        return ((), .done)
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
    let result = try storage.perform(Fixtures.order("strawberry-banana-juice")) { levels in
      levels[0] -= 10
      levels[1] -= 1
      return ("made", .done)
    }
    #expect(result == "made")
    #expect(try storage.levels() == [0, 9, 10])
    let entries = try storage.journal()
    let entry = try #require(entries.first)
    #expect(entries.count == 1)
    #expect(entry.shop == "downtown")
    #expect(entry.kind == .order)
    #expect(entry.subject == "strawberry-banana-juice")
    #expect(entry.count == 1)
    #expect(entry.outcome == .done)
    #expect(entry.changes == ["strawberry": -10, "banana": -1])
    #expect(abs(entry.time.timeIntervalSince(before)) < 60)
  }

  @Test func refusedOperationJournalsNoChange() throws {
    let directory = try TemporaryDirectory()
    let storage = try SQLiteStockStorage(
      path: directory.file("store.sqlite"), fruits: Fixtures.fruits)
    let operation = StockOperation(kind: .remove, shop: "store", subject: "kiwi", count: 11)
    try storage.perform(operation) { _ in ((), .refused) }
    #expect(try storage.levels() == [10, 10, 10])
    let entry = try #require(try storage.journal().first)
    #expect(entry.kind == .remove)
    #expect(entry.outcome == .refused)
    #expect(entry.count == 11)
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
        return ((), .done)
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
      let operation = StockOperation(kind: .add, shop: "store", subject: "kiwi", count: count)
      try storage.perform(operation) { levels in
        levels[2] += count
        return ((), .done)
      }
    }
    let all = try storage.journal()
    #expect(all.map(\.count) == [5, 4, 3, 2, 1])
    #expect(all.map(\.changes) == [5, 4, 3, 2, 1].map { ["kiwi": $0] })
    #expect(all.map(\.id) == all.map(\.id).sorted(by: >))
    #expect(try storage.journal(limit: 2).map(\.count) == [5, 4])
    #expect(try storage.journal(limit: 0).isEmpty)
    #expect(try storage.levels() == [10, 10, 25])
  }

  @Test func fruitAddedLaterAppearsWithItsInitialStock() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    do {
      let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
      try storage.perform(Fixtures.order("banana-juice")) { levels in
        levels[1] -= 2
        return ((), .done)
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
        return ((), .done)
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
      return ((), .done)
    }
    #expect(try second.levels() == [7, 10, 10])
    let seen = try second.perform(Fixtures.order("kiwi-juice", shop: "airport")) { levels in
      levels[0] -= 3
      return (levels, .done)
    }
    #expect(seen == [4, 10, 10])
    #expect(try first.levels() == [10, 10, 4])
    #expect(try first.journal().map(\.shop) == ["airport", "downtown"])
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
        return ((), .done)
      }
    }
    #expect(try SQLiteStockStorage(path: path, fruits: Fixtures.fruits).levels() == [10, 8, 10])
  }
}
