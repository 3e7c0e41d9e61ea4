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
      try tables(connection) == ["journal", "juice_maker_meta", "juice_maker_migrations", "stock"])
    let migrations = try connection.execute("SELECT version FROM juice_maker_migrations")
    #expect(migrations.count == Schema.migrations.count)
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
    #expect(migrations.integer(0, 0) == Int64(Schema.migrations.count))
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
