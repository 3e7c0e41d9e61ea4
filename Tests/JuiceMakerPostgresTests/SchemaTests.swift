import Foundation
import JuiceMakerKit
import TemporaryPostgres
import Testing

@testable import JuiceMakerPostgres

@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct SchemaTests {
  private func connect(_ uri: String) throws -> Connection {
    try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
  }

  private func tables(_ connection: Connection) throws -> [String] {
    let result = try connection.execute(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    return (0..<result.count).compactMap { result.text($0, 0) }
  }

  @Test func createsTheSchemaInAnEmptyDatabaseOnce() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try connect(uri)
    #expect(try Schema.state(connection) == .empty)
    #expect(try Schema.prepare(connection, creating: .ifMissing))
    #expect(try Schema.state(connection) == .store(version: Schema.version))
    #expect(try !Schema.prepare(connection, creating: .ifMissing))
    #expect(
      try tables(connection) == [
        "journal", "juice_maker_meta", "juice_maker_migrations", "menu_file", "menu_publication",
        "stock",
      ])
    let migrations = try connection.execute("SELECT version FROM juice_maker_migrations")
    #expect(migrations.count == Schema.migrator.migrations.count)
  }

  @Test func manyConnectionsCreateTheSchemaAtOnce() async throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let failures = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<8 {
        group.addTask {
          do {
            _ = try Schema.prepare(
              try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5)),
              creating: .ifMissing)
            return nil
          } catch {
            return "\(error)"
          }
        }
      }
      return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
    }
    #expect(failures == [])
    #expect(try Schema.state(connect(uri)) == .store(version: Schema.version))
  }

  @Test func refusesADatabaseWithOtherTablesUntouched() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try connect(uri)
    try connection.execute("CREATE TABLE invoices (id int)")
    #expect(throws: Schema.Problem.foreign("it holds other tables (invoices)")) {
      _ = try Schema.prepare(connection, creating: .ifMissing)
    }
    #expect(try tables(connection) == ["invoices"])
  }

  @Test func refusesAnotherApplicationsMarker() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try connect(uri)
    try connection.execute(
      "CREATE TABLE juice_maker_meta (key text PRIMARY KEY, value text NOT NULL);"
        + "INSERT INTO juice_maker_meta VALUES ('application', 'smoothie-maker')")
    #expect(
      throws: Schema.Problem.foreign(
        "its juice_maker_meta table names the application smoothie-maker")
    ) {
      _ = try Schema.prepare(connection, creating: .ifMissing)
    }
    #expect(try tables(connection) == ["juice_maker_meta"])
  }

  @Test func refusesANewerSchemaVersionUntouched() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try connect(uri)
    _ = try Schema.prepare(connection, creating: .ifMissing)
    try connection.execute(
      "UPDATE juice_maker_meta SET value = '\(Schema.version + 1)' WHERE key = 'schema_version'")
    #expect(throws: Schema.Problem.newerVersion(Schema.version + 1)) {
      _ = try Schema.prepare(connection, creating: .ifMissing)
    }
    let migrations = try connection.execute("SELECT count(*) FROM juice_maker_migrations")
    #expect(migrations.integer(0, 0) == Int64(Schema.migrator.migrations.count))
  }

  /// A version 1 store as that version wrote it: an order, a refusal, a restock and a
  /// conflict.
  static let versionOne = """
    CREATE TABLE juice_maker_meta (key text PRIMARY KEY, value text NOT NULL);
    INSERT INTO juice_maker_meta VALUES ('application', 'juice-maker'), ('schema_version', '1');
    CREATE TABLE juice_maker_migrations (version integer PRIMARY KEY, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now());
    INSERT INTO juice_maker_migrations (version, name) VALUES (1, 'create stock and journal');
    CREATE TABLE stock (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      fruit text NOT NULL UNIQUE, level bigint NOT NULL CHECK (level >= 0),
      initial bigint NOT NULL CHECK (initial >= 0));
    CREATE TABLE journal (sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      request_id text NOT NULL UNIQUE, time timestamptz NOT NULL DEFAULT now(),
      editor text NOT NULL,
      action text NOT NULL CHECK (action IN ('order', 'add', 'remove', 'set')),
      subject text NOT NULL, count bigint NOT NULL, expected bigint,
      outcome text NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
      detail jsonb NOT NULL, changes jsonb NOT NULL);
    CREATE INDEX journal_editor ON journal (editor, sequence);
    CREATE INDEX journal_time ON journal (time);
    INSERT INTO stock (fruit, level, initial) VALUES
      ('strawberry', 0, 10), ('banana', 12, 10), ('kiwi', 10, 10);
    INSERT INTO journal (request_id, time, editor, action, subject, count, expected, outcome,
      detail, changes) VALUES
      ('till-1', to_timestamp(1000000000), 'downtown', 'order', 'strawberry-banana-juice', 1,
        NULL, 'done', '{}', '[["strawberry", 10, 0], ["banana", 10, 9]]'),
      ('till-2', to_timestamp(1000000001), 'airport', 'order', 'strawberry-banana-juice', 1,
        NULL, 'refused', '{"shortages": [["strawberry", 10, 0]]}', '[]'),
      ('edit-3', to_timestamp(1000000002), 'store', 'add', 'banana', 3, NULL, 'done', '{}',
        '[["banana", 9, 12]]'),
      ('edit-4', to_timestamp(1000000003), 'store', 'set', 'kiwi', 4, 7, 'conflict',
        '{"actual": 10}', '[]');
    """

  @Test func versionOneStoreMovesToTheOneJournalModelWithItsHistory() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    try connect(uri).execute(Self.versionOne)
    let fruits = [
      Fruit(id: "strawberry", initialStock: 10), Fruit(id: "banana", initialStock: 10),
      Fruit(id: "kiwi", initialStock: 10),
    ]
    let storage = try PostgresStockStorage(uri: uri, fruits: fruits)
    #expect(try storage.levels() == [0, 12, 10])
    let journal = try storage.journal(JournalQuery())
    #expect(journal.map(\.id) == ["edit-4", "edit-3", "till-2", "till-1"])
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
    #expect(journal[3].date == Date(timeIntervalSince1970: 1_000_000_000))
    let connection = try connect(uri)
    #expect(try Schema.state(connection) == .store(version: Schema.version))
    let columns = try connection.execute(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'journal' "
        + "ORDER BY ordinal_position")
    // The same columns as every store keeps, whatever their order in the table.
    #expect(Set((0..<columns.count).compactMap { columns.text($0, 0) }) == Set(JournalRow.columns))
    // Version 3 worked out the fruit each made order used from its changes.
    let used = try connection.execute("SELECT request_id, used FROM journal ORDER BY sequence")
    #expect(
      (0..<used.count).map { [used.text($0, 0) ?? "", used.text($0, 1) ?? ""] } == [
        ["till-1", "11"], ["till-2", "0"], ["edit-3", "0"], ["edit-4", "0"],
      ])
    #expect(journal.allSatisfy { $0.operation.price == nil })
    // The migrated store takes new operations.
    _ = try storage.perform(
      StockOperation(editor: "store", action: .add("kiwi", count: 1)), touching: [2]
    ) { levels in
      levels[2] += 1
      return .done
    }
    #expect(try storage.levels() == [0, 12, 11])
  }

  @Test func leavesAnEmptyDatabaseEmptyWhenNotToCreate() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try connect(uri)
    #expect(throws: Schema.Problem.missing) {
      _ = try Schema.prepare(connection, creating: .never)
    }
    #expect(try tables(connection) == [])
  }

  @Test func createsOnlyWhereNoStoreIs() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try connect(uri)
    #expect(try Schema.prepare(connection, creating: .always))
    #expect(throws: Schema.Problem.alreadyExists(version: Schema.version)) {
      _ = try Schema.prepare(connection, creating: .always)
    }
    #expect(try !Schema.prepare(connection, creating: .never))
  }
}
