import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

/// Stores written by version 1 of the schema are migrated when opened.
struct StoreSchemaTests {
  /// A version 1 store as that version wrote it: three rows, one refused.
  static let versionOne = """
    PRAGMA journal_mode = WAL;
    CREATE TABLE stock (
      id INTEGER PRIMARY KEY,
      fruit TEXT NOT NULL UNIQUE,
      level INTEGER NOT NULL CHECK (typeof(level) = 'integer' AND level >= 0),
      initial INTEGER NOT NULL CHECK (typeof(initial) = 'integer' AND initial >= 0)
    );
    CREATE TABLE journal (
      id INTEGER PRIMARY KEY,
      time REAL NOT NULL,
      shop TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('order', 'add', 'remove', 'set')),
      subject TEXT NOT NULL,
      count INTEGER NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused')),
      changes TEXT NOT NULL
    );
    INSERT INTO stock (fruit, level, initial) VALUES
      ('strawberry', 0, 10), ('banana', 12, 10), ('kiwi', 10, 10);
    INSERT INTO journal (time, shop, kind, subject, count, outcome, changes) VALUES
      (1.0e9, 'downtown', 'order', 'strawberry-banana-juice', 1, 'done',
        '{"strawberry":-10,"banana":-1}'),
      (1.0e9 + 1, 'airport', 'order', 'strawberry-banana-juice', 1, 'refused', '{}'),
      (1.0e9 + 2, 'store', 'add', 'banana', 3, 'done', '{"banana":3}');
    PRAGMA application_id = 1246579538;
    PRAGMA user_version = 1;
    """

  @Test func versionOneStoreIsMigratedWithItsJournal() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try RawDatabase(path: path).execute(Self.versionOne)
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    #expect(try storage.levels() == [0, 12, 10])
    let journal = try storage.journal(JournalQuery())
    #expect(journal.map(\.sequence) == [3, 2, 1])
    #expect(journal.map(\.id) == ["journal-3", "journal-2", "journal-1"])
    #expect(
      journal.map(\.operation.action) == [
        .add("banana", count: 3), .order("strawberry-banana-juice", count: 1),
        .order("strawberry-banana-juice", count: 1),
      ])
    #expect(journal.map(\.operation.editor) == ["store", "airport", "downtown"])
    #expect(journal.map(\.outcome) == [.done, .refused([]), .done])
    #expect(journal[0].changes == [StockChange.Level(fruit: "banana", before: 9, after: 12)])
    #expect(journal[1].changes.isEmpty)
    #expect(
      journal[2].changes == [
        StockChange.Level(fruit: "strawberry", before: 10, after: 0),
        StockChange.Level(fruit: "banana", before: 10, after: 9),
      ])
    #expect(journal[2].date == Date(timeIntervalSince1970: 1.0e9))

    // The migrated store takes new operations, and opens again without migrating.
    try storage.perform(Fixtures.order("kiwi-juice")) { levels in
      levels[2] -= 3
      return .done
    }
    let reopened = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    #expect(try reopened.journal(JournalQuery()).count == 4)
    let steps = try RawDatabase(path: path).rows(
      "SELECT version, name, time IS NULL FROM migration ORDER BY version")
    #expect(steps.map { $0[0] } == ["1", "2"])
    #expect(steps.map { $0[2] } == ["1", "0"])
    #expect(try RawDatabase(path: path).rows("PRAGMA user_version") == [["2"]])
  }

  @Test func newStoreRecordsEveryStep() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    _ = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let steps = try RawDatabase(path: path).rows(
      "SELECT version, time IS NULL FROM migration ORDER BY version")
    #expect(steps == [["1", "0"], ["2", "0"]])
  }

  @Test func journalConstraintsRefuseRowsThatContradictTheirKind() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    _ = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let raw = try RawDatabase(path: path)
    let contradictions = [
      // An order naming a fruit.
      "('a', 1, 'x', 'order', NULL, 'kiwi', 1, NULL, 'done', NULL, NULL, '{}', '{}')",
      // A refusal without shortages.
      "('b', 1, 'x', 'add', NULL, 'kiwi', 1, NULL, 'refused', NULL, NULL, '{}', '{}')",
      // A conflict without the level found.
      "('c', 1, 'x', 'set', NULL, 'kiwi', 1, 2, 'conflict', NULL, NULL, '{}', '{}')",
    ]
    for row in contradictions {
      #expect(throws: RawDatabase.Failure.self) {
        try raw.execute(
          """
          INSERT INTO journal (request, time, editor, kind, juice, fruit, count, expected,
            outcome, actual, shortages, changes, levels) VALUES \(row)
          """)
      }
    }
    try raw.execute(
      """
      INSERT INTO journal (request, time, editor, kind, juice, fruit, count, expected, outcome,
        actual, shortages, changes, levels)
      VALUES ('d', 1, 'x', 'order', 'kiwi-juice', NULL, 1, NULL, 'done', NULL, NULL, '{}', '{}')
      """)
    #expect(throws: RawDatabase.Failure.self) {
      try raw.execute(
        """
        INSERT INTO journal (request, time, editor, kind, juice, fruit, count, expected, outcome,
          actual, shortages, changes, levels)
        VALUES ('d', 2, 'x', 'order', 'kiwi-juice', NULL, 1, NULL, 'done', NULL, NULL, '{}', '{}')
        """)
    }
  }
}
