import Foundation
import TemporaryPostgres
import Testing

/// The throwaway server the tests of this target share, started on first use and stopped
/// when the test process ends.
///
/// Each test works in a database of its own. Tests that stop the server start their own.
enum Postgres {
  /// Whether the tests run: PostgreSQL is installed, or it is required (`CI=true`), where
  /// a missing installation fails every test instead of skipping it.
  static let canRun = TemporaryServer.isInstalled || TemporaryServer.isRequired

  /// Why the tests are skipped when they are.
  static let skipReason: Comment =
    "PostgreSQL is not installed (apt-get install postgresql); set CI=true to require it"

  private static let shared = Result { () throws(TemporaryServer.Unavailable) in
    try TemporaryServer.start()
  }

  /// The shared server.
  static func server() throws -> TemporaryServer {
    try shared.get()
  }

  /// A new empty database on the shared server, and its URI over the unix socket.
  static func newDatabase() throws -> (server: TemporaryServer, uri: String, name: String) {
    let server = try server()
    let name = try server.createDatabase()
    return (server, server.socketURI(database: name), name)
  }
}
