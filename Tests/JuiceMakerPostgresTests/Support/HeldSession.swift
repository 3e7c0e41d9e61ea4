import Foundation
import TemporaryPostgres
import Testing

/// A second session, a `psql` process, that runs some SQL and then sleeps inside it,
/// holding what the SQL took (row locks, an advisory lock) until `release()`.
///
/// `release()` ends the server process with `pg_terminate_backend`: a `psql` that is
/// killed alone leaves its backend asleep, still holding the locks.
final class HeldSession: Sendable {
  private let server: TemporaryServer
  private let process = Process()
  /// The `application_name` the session runs under, unique to it.
  let name = "holder_" + UUID().uuidString.prefix(8).lowercased()

  /// Starts `psql` running `sql` and then sleeping, and waits until it sleeps.
  init(server: TemporaryServer, database: String, holding sql: String) throws {
    self.server = server
    let command = server.psqlCommand(sql + "; SELECT pg_sleep(600)", database: database)
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    var environment = ProcessInfo.processInfo.environment
    environment["PGAPPNAME"] = name
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(30)
    while try server.sql(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' "
        + "AND wait_event = 'PgSleep'") != "1"
    {
      guard process.isRunning, Date() < deadline else {
        release()
        throw HoldFailure(sql: sql)
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// Ends the session's server process and `psql`.
  func release() {
    _ = try? server.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'")
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  /// `psql` ended or did not reach its sleep in time.
  struct HoldFailure: Error, CustomStringConvertible {
    let sql: String
    var description: String { "psql did not come to hold: \(sql)" }
  }
}
