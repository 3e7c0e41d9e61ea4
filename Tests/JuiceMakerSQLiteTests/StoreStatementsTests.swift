import JuiceMakerKit
import JuiceMakerSQLite
import Testing

struct StoreStatementsTests {
  /// An order another client runs with the published statements, as the benchmark's
  /// Python baseline does, on a store the storage created.
  private static func orderBanana(on raw: RawDatabase, request: String) throws {
    try raw.execute(StoreStatements.begin)
    #expect(try raw.rows(StoreStatements.selectRequest, [.text(request)]).isEmpty)
    let levels = try raw.rows(StoreStatements.selectLevels)
    let banana = try #require(try raw.rows("SELECT id FROM stock WHERE fruit = 'banana'").first)
    let row = try #require(Int64(banana[0]))
    let level = try #require(levels.first { $0[0] == banana[0] }.flatMap { Int64($0[1]) })
    #expect(
      try raw.rows(StoreStatements.updateLevel, [.integer(row), .integer(level - 2)]).isEmpty)
    let entry: [RawDatabase.Value] = [
      .text(request), .real(1_700_000_000), .text("raw"), .text("order"), .text("banana-juice"),
      .integer(1), .null, .text("done"), .null, .null,
      .text(#"[["banana",\#(level),\#(level - 2)]]"#), .null, .null, .integer(2), .null,
    ]
    #expect(try raw.rows(StoreStatements.insertEntry, entry).isEmpty)
    try raw.execute(StoreStatements.commit)
  }

  @Test func anOrderRunWithThePublishedStatementsIsOneTheStorageReplays() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let raw = try RawDatabase(path: path)
    try raw.execute(StoreStatements.connectionPragmas(.full))
    try Self.orderBanana(on: raw, request: "raw-1")

    #expect(try storage.levels() == [10, 8, 10])
    let entry = try #require(try storage.entry(for: "raw-1"))
    #expect(entry.operation.editor == "raw")
    #expect(entry.operation.action == .order("banana-juice", count: 1))
    #expect(entry.changes == [StockChange.Level(fruit: "banana", before: 10, after: 8)])
    let operation = StockOperation(
      id: "raw-1", editor: "downtown", action: .order("banana-juice", count: 1))
    let receipt = try storage.perform(operation, touching: [1]) { levels in
      levels[1] -= 2
      return .done
    }
    #expect(receipt.replayed)
    #expect(receipt.entry == entry)
    #expect(try storage.levels() == [10, 8, 10])
  }

  @Test(arguments: SQLiteStockStorage.Durability.allCases)
  func connectionPragmasSetTheDurabilityAndTheLogLimits(
    durability: SQLiteStockStorage.Durability
  ) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    _ = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits, durability: durability)
    let raw = try RawDatabase(path: path)
    try raw.execute(StoreStatements.connectionPragmas(durability))
    #expect(try raw.rows("PRAGMA synchronous") == [[durability == .full ? "2" : "1"]])
    #expect(try raw.rows("PRAGMA wal_autocheckpoint") == [["4096"]])
    #expect(try raw.rows("PRAGMA journal_size_limit") == [["4194304"]])
    #expect(try raw.rows("PRAGMA trusted_schema") == [["0"]])
    #expect(try raw.rows("PRAGMA journal_mode") == [["wal"]])
  }

  @Test func libraryVersionIsTheLinkedSQLite() throws {
    let directory = try TemporaryDirectory()
    let raw = try RawDatabase(path: directory.file("any.sqlite"))
    #expect(try raw.rows("SELECT sqlite_version()") == [[StoreStatements.libraryVersion]])
  }
}
