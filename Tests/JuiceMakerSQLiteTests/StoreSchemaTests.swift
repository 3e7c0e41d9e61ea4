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
    #expect(steps.map { $0[0] } == ["1", "2", "3", "4", "5"])
    #expect(steps.map { $0[2] } == ["1", "0", "0", "0", "0"])
    #expect(try RawDatabase(path: path).rows("PRAGMA user_version") == [["5"]])
  }

  @Test func newStoreRecordsEveryStep() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    _ = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let steps = try RawDatabase(path: path).rows(
      "SELECT version, time IS NULL FROM migration ORDER BY version")
    #expect(steps == [["1", "0"], ["2", "0"], ["3", "0"], ["4", "0"], ["5", "0"]])
  }

  @Test func journalConstraintsRefuseRowsThatContradictTheirAction() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    _ = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let raw = try RawDatabase(path: path)
    let insert = """
      INSERT INTO journal (request_id, time, editor, action, subject, count, expected,
        outcome, actual, shortages, changes) VALUES
      """
    let contradictions = [
      // An unknown action.
      "('a', 1, 'x', 'sell', 'kiwi', 1, NULL, 'done', NULL, NULL, '[]')",
      // A refusal without shortages.
      "('b', 1, 'x', 'add', 'kiwi', 1, NULL, 'refused', NULL, NULL, '[]')",
      // A conflict without the level found.
      "('c', 1, 'x', 'set', 'kiwi', 1, 2, 'conflict', NULL, NULL, '[]')",
      // An expected level on an order.
      "('e', 1, 'x', 'order', 'kiwi-juice', 1, 3, 'done', NULL, NULL, '[]')",
    ]
    for row in contradictions {
      #expect(throws: RawDatabase.Failure.self) { try raw.execute(insert + row) }
    }
    try raw.execute(
      insert + "('d', 1, 'x', 'order', 'kiwi-juice', 1, NULL, 'done', NULL, NULL, '[]')")
    #expect(throws: RawDatabase.Failure.self) {
      try raw.execute(
        insert + "('d', 2, 'x', 'order', 'kiwi-juice', 1, NULL, 'done', NULL, NULL, '[]')")
    }
  }

  /// A version 2 store as that version wrote it: an order, a refusal, a restock and a
  /// conflict.
  static let versionTwo = """
    PRAGMA journal_mode = WAL;
    CREATE TABLE stock (
      id INTEGER PRIMARY KEY,
      fruit TEXT NOT NULL UNIQUE,
      level INTEGER NOT NULL CHECK (typeof(level) = 'integer' AND level >= 0),
      initial INTEGER NOT NULL CHECK (typeof(initial) = 'integer' AND initial >= 0)
    );
    CREATE TABLE journal (
      id INTEGER PRIMARY KEY,
      request TEXT NOT NULL UNIQUE CHECK (length(request) BETWEEN 1 AND 128),
      time REAL NOT NULL,
      editor TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('order', 'add', 'remove', 'set')),
      juice TEXT CHECK ((juice IS NOT NULL) = (kind = 'order')),
      fruit TEXT CHECK ((fruit IS NOT NULL) = (kind <> 'order')),
      count INTEGER NOT NULL CHECK (typeof(count) = 'integer' AND count >= 0),
      expected INTEGER CHECK (expected IS NULL OR (kind = 'set' AND expected >= 0)),
      outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
      actual INTEGER CHECK ((actual IS NOT NULL) = (outcome = 'conflict')),
      shortages TEXT CHECK ((shortages IS NOT NULL) = (outcome = 'refused')),
      changes TEXT NOT NULL,
      levels TEXT NOT NULL
    );
    CREATE TABLE migration (version INTEGER PRIMARY KEY, name TEXT NOT NULL, time REAL);
    INSERT INTO migration VALUES (1, 'create the stock and journal tables', 1.0e9),
      (2, 'journal request ids, typed subjects, levels before and after, shortages', 1.0e9);
    INSERT INTO stock (fruit, level, initial) VALUES
      ('strawberry', 0, 10), ('banana', 12, 10), ('kiwi', 10, 10);
    INSERT INTO journal (request, time, editor, kind, juice, fruit, count, expected, outcome,
      actual, shortages, changes, levels) VALUES
      ('till-1', 1.0e9, 'downtown', 'order', 'strawberry-banana-juice', NULL, 1, NULL, 'done',
        NULL, NULL, '{"strawberry":-10,"banana":-1}',
        '{"strawberry":[10,0],"banana":[10,9]}'),
      ('till-2', 1.0e9 + 1, 'airport', 'order', 'strawberry-banana-juice', NULL, 1, NULL,
        'refused', NULL, '[{"fruit":"strawberry","needed":10,"available":0}]', '{}', '{}'),
      ('edit-3', 1.0e9 + 2, 'store', 'add', NULL, 'banana', 3, NULL, 'done', NULL, NULL,
        '{"banana":3}', '{"banana":[9,12]}'),
      ('edit-4', 1.0e9 + 3, 'store', 'set', NULL, 'kiwi', 4, 7, 'conflict', 10, NULL, '{}',
        '{}');
    PRAGMA application_id = 1246579538;
    PRAGMA user_version = 2;
    """

  @Test func versionTwoStoreMovesToTheOneJournalModelWithItsHistory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try RawDatabase(path: path).execute(Self.versionTwo)
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    #expect(try storage.levels() == [0, 12, 10])
    let journal = try storage.journal(JournalQuery())
    #expect(journal.map(\.sequence) == [4, 3, 2, 1])
    #expect(journal.map(\.id) == ["edit-4", "edit-3", "till-2", "till-1"])
    #expect(
      journal.map(\.operation.action) == [
        .set("kiwi", level: 4, expected: 7), .add("banana", count: 3),
        .order("strawberry-banana-juice", count: 1), .order("strawberry-banana-juice", count: 1),
      ])
    #expect(
      journal.map(\.outcome) == [
        .conflict(fruit: "kiwi", expected: 7, actual: 10), .done,
        .refused([Shortage(fruit: "strawberry", needed: 10, available: 0)]), .done,
      ])
    #expect(journal[1].changes == [StockChange.Level(fruit: "banana", before: 9, after: 12)])
    #expect(
      journal[3].changes == [
        StockChange.Level(fruit: "strawberry", before: 10, after: 0),
        StockChange.Level(fruit: "banana", before: 10, after: 9),
      ])
    #expect(journal[3].date == Date(timeIntervalSince1970: 1.0e9))
    #expect(try storage.entry(for: "till-2") == journal[2])
    // Levels still equal the initial levels plus the journal's changes, in SQL.
    #expect(
      try RawDatabase(path: path).rows(
        """
        SELECT fruit, level, initial + coalesce((SELECT sum(value ->> 2 - value ->> 1)
          FROM journal, json_each(journal.changes) WHERE value ->> 0 = fruit), 0)
        FROM stock ORDER BY id
        """) == [["strawberry", "0", "0"], ["banana", "12", "12"], ["kiwi", "10", "10"]])
    #expect(try RawDatabase(path: path).rows("PRAGMA user_version") == [["5"]])
  }

  /// A version 3 store: the one journal model, before prices, fruit used and limits.
  static let versionThree = """
    PRAGMA journal_mode = WAL;
    CREATE TABLE stock (
      id INTEGER PRIMARY KEY,
      fruit TEXT NOT NULL UNIQUE,
      level INTEGER NOT NULL CHECK (typeof(level) = 'integer' AND level >= 0),
      initial INTEGER NOT NULL CHECK (typeof(initial) = 'integer' AND initial >= 0)
    );
    CREATE TABLE journal (
      sequence INTEGER PRIMARY KEY,
      request_id TEXT NOT NULL UNIQUE CHECK (length(request_id) BETWEEN 1 AND 128),
      time REAL NOT NULL,
      editor TEXT NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('order', 'add', 'remove', 'set')),
      subject TEXT NOT NULL,
      count INTEGER NOT NULL CHECK (typeof(count) = 'integer' AND count >= 0),
      expected INTEGER CHECK (expected IS NULL OR (action = 'set' AND expected >= 0)),
      outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
      actual INTEGER CHECK ((actual IS NOT NULL) = (outcome = 'conflict')),
      shortages TEXT CHECK ((shortages IS NOT NULL) = (outcome = 'refused')),
      changes TEXT NOT NULL
    );
    CREATE INDEX journal_editor ON journal (editor, sequence);
    CREATE TABLE migration (version INTEGER PRIMARY KEY, name TEXT NOT NULL, time REAL);
    INSERT INTO migration VALUES (1, 'one', NULL), (2, 'two', NULL), (3, 'three', NULL);
    INSERT INTO stock (fruit, level, initial) VALUES
      ('strawberry', 0, 10), ('banana', 12, 10), ('kiwi', 10, 10);
    INSERT INTO journal (request_id, time, editor, action, subject, count, expected, outcome,
      actual, shortages, changes) VALUES
      ('till-1', 1.0e9, 'downtown', 'order', 'strawberry-banana-juice', 1, NULL, 'done', NULL,
        NULL, '[["strawberry",10,0],["banana",10,9]]'),
      ('till-2', 1.0e9 + 1, 'airport', 'order', 'strawberry-banana-juice', 1, NULL, 'refused',
        NULL, '[["strawberry",10,0]]', '[]'),
      ('edit-3', 1.0e9 + 2, 'store', 'add', 'banana', 3, NULL, 'done', NULL, NULL,
        '[["banana",9,12]]');
    PRAGMA application_id = 1246579538;
    PRAGMA user_version = 3;
    """

  @Test func versionThreeStoreGainsPricesFruitUsedAndLimitsWithItsHistory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try RawDatabase(path: path).execute(Self.versionThree)
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    #expect(try storage.levels() == [0, 12, 10])
    let journal = try storage.journal(JournalQuery())
    #expect(journal.map(\.id) == ["edit-3", "till-2", "till-1"])
    #expect(journal.allSatisfy { $0.operation.price == nil })
    // The fruit each made order used, worked out from its changes.
    #expect(
      try RawDatabase(path: path).rows("SELECT request_id, used FROM journal ORDER BY sequence")
        == [["till-1", "11"], ["till-2", "0"], ["edit-3", "0"]])
    #expect(try RawDatabase(path: path).rows("PRAGMA user_version") == [["5"]])
    #expect(try RawDatabase(path: path).rows("SELECT max(version) FROM migration") == [["5"]])
    // The migrated store takes an order with its price.
    let price = Money(minorUnits: 4500, currency: try Currency(code: "KRW"))
    let receipt = try storage.perform(
      StockOperation(editor: "downtown", action: .order("kiwi-juice", count: 1), price: price),
      touching: [2]
    ) { levels in
      levels[2] -= 3
      return .done
    }
    #expect(try storage.entry(for: receipt.entry.id)?.operation.price == price)
  }
}
