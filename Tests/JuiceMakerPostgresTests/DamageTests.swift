import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import TemporaryPostgres
import Testing

/// A PostgreSQL store damaged behind the program's back is refused with exit 65 naming
/// what is wrong, never read as zeros, and nothing is written to it.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct DamageTests {
  /// A change to a store's tables and words the refusal must hold.
  struct Damage: Sendable, CustomStringConvertible {
    let sql: String
    let named: [String]
    var description: String { sql }
  }

  static let damages = [
    Damage(
      sql: "ALTER TABLE stock ALTER COLUMN level TYPE numeric(30,2)",
      named: ["stock.level", "numeric(30,2)", "bigint"]),
    Damage(
      sql: "ALTER TABLE stock DROP CONSTRAINT stock_level_check, ALTER COLUMN level TYPE text; "
        + "UPDATE stock SET level = 'lots' WHERE fruit = 'kiwi'",
      named: ["stock.level", "text", "bigint"]),
    Damage(sql: "DELETE FROM stock WHERE fruit = 'kiwi'", named: ["kiwi", "missing"]),
    Damage(
      sql: "ALTER TABLE stock ALTER COLUMN level DROP NOT NULL; "
        + "UPDATE stock SET level = NULL WHERE fruit = 'kiwi'",
      named: ["kiwi", "NULL"]),
    Damage(
      sql: "ALTER TABLE stock DROP CONSTRAINT stock_level_check; "
        + "UPDATE stock SET level = -5 WHERE fruit = 'kiwi'",
      named: ["kiwi", "negative"]),
    Damage(
      sql: "UPDATE stock SET fruit = 'Kiwi Fruit!' WHERE fruit = 'kiwi'",
      named: ["Kiwi Fruit!", "fruit id"]),
    Damage(sql: "ALTER TABLE stock DROP COLUMN initial", named: ["stock.initial", "missing"]),
    Damage(
      sql: "ALTER TABLE journal ALTER COLUMN changes TYPE text",
      named: ["journal.changes", "text", "jsonb"]),
  ]

  @Test(arguments: damages)
  func aDamagedStoreIsRefusedWith65AndLeftUnchanged(damage: Damage) async throws {
    let (server, uri, database) = try Postgres.newDatabase()
    try await JuiceMakerRun.initialize(uri)
    let added = try await JuiceMakerRun.run(["stock", "add", "kiwi", "5"], store: uri)
    #expect(added.status == 0, "\(added)")
    try server.sql(damage.sql, database: database)
    let before = try LockWaitTests.contents(server, database)
    for arguments in [["stock"], ["stock", "add", "kiwi", "1"], ["order", "kiwi-juice"]] {
      let outcome = try await JuiceMakerRun.run(arguments, store: uri)
      #expect(outcome.status == 65, "\(arguments): \(outcome)")
      for word in damage.named {
        #expect(outcome.stderr.contains(word), "\(arguments): \(outcome)")
      }
    }
    #expect(try LockWaitTests.contents(server, database) == before)
  }

  // MARK: - Damage under an open storage

  static let fruits = [Fruit(id: "kiwi", initialStock: 10), Fruit(id: "mango", initialStock: 10)]

  static let runningDamages = [
    Damage(
      sql: "ALTER TABLE stock ALTER COLUMN level TYPE numeric(30,2)",
      named: ["kiwi", "10.00", "not a whole number"]),
    Damage(
      sql: "ALTER TABLE stock ALTER COLUMN level DROP NOT NULL; "
        + "UPDATE stock SET level = NULL WHERE fruit = 'kiwi'",
      named: ["kiwi", "NULL"]),
    Damage(sql: "DELETE FROM stock WHERE fruit = 'kiwi'", named: ["kiwi", "missing"]),
  ]

  @Test(arguments: runningDamages)
  func damageUnderAnOpenStorageIsRefusedAndNothingIsWritten(damage: Damage) throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let storage = try PostgresStockStorage(uri: uri, fruits: Self.fruits)
    #expect(try storage.levels() == [10, 10])
    try server.sql(damage.sql, database: database)
    let before = try LockWaitTests.contents(server, database)
    for attempt in [false, true] {
      let error = #expect(throws: StockStorageError.self) {
        if attempt {
          _ = try storage.perform(
            StockOperation(editor: "test", action: .add("kiwi", count: 1)), touching: [0]
          ) { levels in
            Issue.record("decided on damaged levels \(levels)")
            levels[0] += 1
            return .done
          }
        } else {
          _ = try storage.levels()
        }
      }
      guard case .invalid(_, let cause) = error else {
        Issue.record("expected .invalid, got \(String(describing: error))")
        continue
      }
      for word in damage.named {
        #expect(cause.message.contains(word), "\(cause)")
      }
    }
    #expect(try LockWaitTests.contents(server, database) == before)
  }

  @Test func aFruitNewToAStoreWithAJournalGetsItsRow() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let storage = try PostgresStockStorage(uri: uri, fruits: Self.fruits)
    _ = try storage.perform(
      StockOperation(editor: "test", action: .add("kiwi", count: 2)), touching: [0]
    ) { levels in
      levels[0] += 2
      return .done
    }
    let grown = try PostgresStockStorage(
      uri: uri, fruits: Self.fruits + [Fruit(id: "banana", initialStock: 7)])
    #expect(try grown.levels() == [12, 10, 7])
  }
}
