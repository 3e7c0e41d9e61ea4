import Foundation
import TemporaryPostgres
import Testing

/// Stores that cannot be used: one clear message naming the store without its password, the
/// documented exit code, and nothing written.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct StoreAddressTests {
  @Test(arguments: [
    "postgresql://u:pw@h/d?nonsense=1", "postgresql://u:p%zzw@h/d", "postgres://u:pw@[::1/d",
  ])
  func aMalformedURIIsADataError(uri: String) async throws {
    let outcome = try await JuiceMakerRun.run(["stock"], store: uri)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome)")
    #expect(outcome.stderr.contains("***"), "\(outcome)")
    #expect(!outcome.stderr.contains(":pw@") && !outcome.stderr.contains("p%zzw"))
  }

  @Test func aWrongPasswordIsAnIOErrorWithoutThePassword() async throws {
    let server = try Postgres.server()
    let uri = "postgresql://postgres:Wr0ng-Secret@127.0.0.1:\(server.port)/postgres"
    let outcome = try await JuiceMakerRun.run(["--json", "order", "banana-juice"], store: uri)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(try outcome.json()["error"] as? String == "storeUnavailable")
    #expect(outcome.stdout.contains("password authentication failed"), "\(outcome)")
    #expect(!outcome.stdout.contains("Wr0ng-Secret") && !outcome.stderr.contains("Wr0ng-Secret"))
  }

  @Test(arguments: [
    // Nothing listens on port 1: refused at once.
    "postgresql://shop:pw@127.0.0.1:1/juice",
    // A documentation address that routes nowhere: the connect timeout ends it.
    "postgresql://shop:pw@192.0.2.1:5432/juice?connect_timeout=2",
  ])
  func anUnreachableServerIsAnIOErrorWithinTheConnectTimeout(uri: String) async throws {
    let outcome = try await JuiceMakerRun.run(["order", "banana-juice"], store: uri)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.elapsed < .seconds(20), "\(outcome.elapsed)")
    #expect(outcome.stderr.contains("postgresql://shop:***@"), "\(outcome)")
    #expect(!outcome.stderr.contains(":pw@"))
  }

  @Test func anotherApplicationsDatabaseIsRefusedUntouched() async throws {
    let (server, uri, database) = try Postgres.newDatabase()
    try server.sql(
      "CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)", database: database)
    let outcome = try await JuiceMakerRun.run(["order", "banana-juice"], store: uri)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr.contains("invoices"), "\(outcome)")
    #expect(try Audit(uri).tables() == ["invoices"])
  }

  @Test func aNewerSchemaVersionIsRefusedUntouched() async throws {
    let (server, uri, database) = try Postgres.newDatabase()
    try await JuiceMakerRun.initialize(uri)
    try server.sql(
      "UPDATE juice_maker_meta SET value = '99' WHERE key = 'schema_version'", database: database)
    let outcome = try await JuiceMakerRun.run(["order", "banana-juice"], store: uri)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr.contains("99"), "\(outcome)")
    #expect(try Audit(uri).journalCount() == 0)
  }
}
