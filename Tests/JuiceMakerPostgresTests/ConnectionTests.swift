import Foundation
import TemporaryPostgres
import Testing

@testable import JuiceMakerPostgres

@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct ConnectionTests {
  @Test func runsStatementsWithParametersAndPreparedStatements() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
    let result = try connection.execute("SELECT $1::bigint + 1, $2::text", ["41", nil])
    #expect(result.count == 1)
    #expect(result.integer(0, 0) == 42)
    #expect(result.text(0, 1) == nil)
    for value in 1...3 {
      let row = try connection.execute(prepared: "double", "SELECT $1::int * 2", [String(value)])
      #expect(row.integer(0, 0) == Int64(value * 2))
    }
  }

  @Test func reportsTheSQLState() throws {
    let (_, uri, _) = try Postgres.newDatabase()
    let connection = try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
    #expect(
      throws: PostgresError(
        code: "42P01", message: "relation \"missing\" does not exist", connectionLost: false)
    ) {
      try connection.execute("SELECT * FROM missing")
    }
    // The connection is still usable.
    #expect(try connection.execute("SELECT 1").integer(0, 0) == 1)
  }

  @Test func noticesALostConnectionAndReconnects() throws {
    let (server, uri, _) = try Postgres.newDatabase()
    let connection = try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
    try server.sql("SELECT pg_terminate_backend(\(connection.backendPID))")
    let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT 1") }
    #expect(error.connectionLost)
    try connection.connect()
    #expect(try connection.execute(prepared: "one", "SELECT 1", []).integer(0, 0) == 1)
  }

  @Test func wrongPasswordIsRefusedWithoutShowingIt() throws {
    let server = try Postgres.server()
    let uri = "postgresql://postgres:wrong-Pa55word@127.0.0.1:\(server.port)/postgres"
    let error = try #require(throws: PostgresError.self) {
      try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
    }
    #expect(error.connectionLost)
    #expect(error.message.contains("password authentication failed"), "\(error)")
    #expect(!error.message.contains("wrong-Pa55word"))
  }

  @Test func waitsForNotifications() throws {
    let (server, uri, database) = try Postgres.newDatabase()
    let listener = try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
    try listener.execute("LISTEN changes")
    #expect(try listener.waitForNotification(timeout: .milliseconds(50)) == false)
    try server.sql("NOTIFY changes, '1'", database: database)
    let started = ContinuousClock.now
    #expect(try listener.waitForNotification(timeout: .seconds(10)))
    #expect(ContinuousClock.now - started < .seconds(5))
  }
}
