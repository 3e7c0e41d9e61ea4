import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A throwaway PostgreSQL server in a temporary directory, for tests and benchmarks.
///
/// `start()` runs `initdb` into a new temporary directory and starts the server with
/// `pg_ctl -w`, listening on a unix socket in that directory and on 127.0.0.1 at a
/// free port. When the process runs as root, the server runs as the `postgres` user,
/// which owns the directory. Local (socket) connections are trusted; TCP connections
/// need the superuser's password, `password`. A watcher process stops the server and
/// removes the directory when the process that started it ends, however it ends;
/// `stop()` does it at once.
public final class TemporaryServer: Sendable {
  /// Why no server could be started.
  public struct Unavailable: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with the failing command's output.
    public let description: String
  }

  /// The directory holding the data directory, the socket and the log.
  public let directory: String
  /// The TCP port on 127.0.0.1.
  public let port: Int
  /// The superuser's name.
  public let user = "postgres"
  /// The superuser's password, needed over TCP.
  public let password: String
  /// The directory of the PostgreSQL programs (`initdb`, `pg_ctl`, `psql`, `pgbench`).
  public let binaries: String
  private let runAsPostgres: Bool

  /// The data directory.
  public var dataDirectory: String { directory + "/data" }

  /// Whether PostgreSQL's programs are installed where `start()` looks for them.
  public static var isInstalled: Bool { findBinaries() != nil }

  /// Whether a missing PostgreSQL must fail the tests rather than skip them: under
  /// continuous integration (`CI=true`).
  public static var isRequired: Bool {
    ProcessInfo.processInfo.environment["CI"] == "true"
  }

  /// Starts a new server.
  ///
  /// - Parameter settings: More `postgresql.conf` lines, such as `max_connections = 200`.
  /// - Throws: `Unavailable` when PostgreSQL is not installed or does not start.
  public static func start(settings: [String] = []) throws(Unavailable) -> TemporaryServer {
    guard let binaries = findBinaries() else {
      throw Unavailable(
        description: "PostgreSQL is not installed (no initdb in PATH or /usr/lib/postgresql/*/bin)")
    }
    let runAsPostgres = getuid() == 0
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "juice-maker-pg-\(UUID().uuidString.prefix(8))").path
    let password = UUID().uuidString
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755]
      )
      try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/pwfile"))
      if runAsPostgres {
        try run("/bin/chown", ["-R", "postgres:", directory])
      }
      let server = TemporaryServer(
        directory: directory, port: try freePort(), password: password, binaries: binaries,
        runAsPostgres: runAsPostgres)
      try server.pg(
        "initdb",
        [
          "-D", server.dataDirectory, "-U", server.user, "--pwfile", directory + "/pwfile",
          "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "--no-instructions",
          "-E", "UTF8", "--locale=C",
        ])
      let configuration =
        [
          "listen_addresses = '127.0.0.1'",
          "port = \(server.port)",
          "unix_socket_directories = '\(directory)'",
          "max_connections = 200",
          "logging_collector = off",
        ] + settings
      let handle = try FileHandle(
        forWritingTo: URL(fileURLWithPath: server.dataDirectory + "/postgresql.conf"))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data((configuration.joined(separator: "\n") + "\n").utf8))
      try handle.close()
      try server.startServer()
      try server.watch()
      return server
    } catch let error as Unavailable {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw Unavailable(description: "cannot prepare \(directory): \(error)")
    }
  }

  private init(
    directory: String, port: Int, password: String, binaries: String, runAsPostgres: Bool
  ) {
    self.directory = directory
    self.port = port
    self.password = password
    self.binaries = binaries
    self.runAsPostgres = runAsPostgres
  }

  // MARK: - Addresses

  /// A URI reaching `database` over TCP on 127.0.0.1, with the password.
  public func tcpURI(database: String = "postgres") -> String {
    "postgresql://\(user):\(password)@127.0.0.1:\(port)/\(database)"
  }

  /// A URI reaching `database` through the unix socket, with no password.
  public func socketURI(database: String = "postgres") -> String {
    "postgresql://\(user)@/\(database)?host=\(directory)&port=\(port)"
  }

  // MARK: - Control

  /// Creates a new empty database.
  ///
  /// - Returns: Its name.
  @discardableResult
  public func createDatabase(_ name: String? = nil) throws(Unavailable) -> String {
    let name = name ?? "store_" + UUID().uuidString.prefix(8).lowercased()
    try sql("CREATE DATABASE \"\(name)\"")
    return name
  }

  /// Runs SQL with `psql` as the superuser.
  ///
  /// - Returns: The rows, one line each, fields separated by `|`.
  @discardableResult
  public func sql(_ sql: String, database: String = "postgres") throws(Unavailable) -> String {
    try Self.run(
      binaries + "/psql",
      [
        "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p", String(port), "-U",
        user, "-d", database, "-c", sql,
      ])
  }

  /// The `psql` command line that runs `sql` in `database` as the superuser, for a
  /// caller that starts it as a process of its own.
  public func psqlCommand(_ sql: String, database: String) -> [String] {
    [
      binaries + "/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p",
      String(port), "-U", user, "-d", database, "-c", sql,
    ]
  }

  /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`).
  public func crash() throws(Unavailable) {
    try pg("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
  }

  /// Starts the server again after `crash()` or `stop()`.
  public func restart() throws(Unavailable) {
    try startServer()
  }

  /// Stops the server (`pg_ctl stop -m fast`) and removes its directory.
  public func stop() {
    _ = try? pg("pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"])
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func startServer() throws(Unavailable) {
    try pg("pg_ctl", ["-D", dataDirectory, "-l", directory + "/log", "-w", "-t", "60", "start"])
  }

  /// Starts a process, detached from this one's process group, that stops the server
  /// and removes the directory once this process has ended.
  private func watch() throws(Unavailable) {
    let stop = command("pg_ctl", ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
      .map(Self.quoted).joined(separator: " ")
    let script = """
      while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done
      \(stop) >/dev/null 2>&1
      rm -rf \(Self.quoted(directory))
      """
    try Self.spawn(["/bin/sh", "-c", script], output: "/dev/null", wait: false)
  }

  // MARK: - Processes

  private func command(_ program: String, _ arguments: [String]) -> [String] {
    let path = binaries + "/" + program
    return runAsPostgres
      ? ["/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
  }

  @discardableResult
  private func pg(_ program: String, _ arguments: [String]) throws(Unavailable) -> String {
    let command = command(program, arguments)
    return try Self.run(command[0], Array(command.dropFirst()))
  }

  /// Runs a program to its end and returns its output.
  ///
  /// The program runs through `bash`, which first closes every descriptor above 2:
  /// the server that `pg_ctl start` leaves running must not hold this process's
  /// descriptors (`Foundation.Process` learns that a child ended when such a
  /// descriptor closes, so an inherited one would hang it).
  @discardableResult
  private static func run(_ program: String, _ arguments: [String]) throws(Unavailable) -> String {
    let outputPath = FileManager.default.temporaryDirectory
      .appending(path: "juice-maker-pg-\(UUID().uuidString).out").path
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let status = try spawn([program] + arguments, output: outputPath, wait: true)
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let shown = ([program] + arguments).map { URL(fileURLWithPath: $0).lastPathComponent }
      throw Unavailable(
        description: "\(shown.prefix(8).joined(separator: " ")) failed with status "
          + "\(status): \(text)")
    }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  /// Starts `command` through `bash` with only standard input (`/dev/null`), output and
  /// error (`output`) open, and waits for it when asked.
  ///
  /// - Returns: The exit status, or 0 when not waiting.
  @discardableResult
  private static func spawn(_ command: [String], output: String, wait: Bool) throws(Unavailable)
    -> Int32
  {
    let script = """
      for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null
      exec "$@"
      """
    let arguments = ["/bin/bash", "-c", script, "bash"] + command
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    if !wait {
      // Its own session, so that a signal to this process's group does not reach it.
      posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID (glibc), not imported
    }
    let argv = arguments.map { strdup($0) } + [nil]
    defer {
      for argument in argv { free(argument) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, environ)
    guard spawned == 0 else {
      throw Unavailable(
        description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
    }
    guard wait else { return 0 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        throw Unavailable(
          description: "cannot wait for \(command[0]): \(String(cString: strerror(errno)))")
      }
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  private static func quoted(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
  }

  /// The directory of `initdb`: `JUICE_MAKER_PG_BIN`, else the newest
  /// `/usr/lib/postgresql/*/bin`, else `PATH`.
  private static func findBinaries() -> String? {
    let manager = FileManager.default
    if let directory = ProcessInfo.processInfo.environment["JUICE_MAKER_PG_BIN"] {
      return manager.isExecutableFile(atPath: directory + "/initdb") ? directory : nil
    }
    if let versions = try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
      for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
        let directory = "/usr/lib/postgresql/\(version)/bin"
        if manager.isExecutableFile(atPath: directory + "/initdb") { return directory }
      }
    }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let directory = String(directory)
      if manager.isExecutableFile(atPath: directory + "/initdb"),
        manager.isExecutableFile(atPath: directory + "/pg_ctl")
      {
        // `initdb` on PATH may be a wrapper; PostgreSQL's own directory has `postgres`.
        let resolved = (try? manager.destinationOfSymbolicLink(atPath: directory + "/initdb"))
          .map {
            URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: directory))
              .deletingLastPathComponent().path
          }
        return resolved ?? directory
      }
    }
    return nil
  }

  private static func freePort() throws(Unavailable) -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else {
      throw Unavailable(description: "cannot open a socket to find a free port")
    }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
    guard bound else { throw Unavailable(description: "cannot bind a socket to find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
