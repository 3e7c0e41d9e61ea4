import Foundation
import TemporaryPostgres
import Testing

/// One password sent through every command, option and error path, found in no output.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct SecretTests {
  static let password = "s3cr3t-pw"

  /// Expects neither stream to hold any of `secrets`.
  private func expectNoSecret(
    _ outcome: Outcome, _ arguments: [String], secrets: [String] = [password],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for secret in secrets {
      #expect(
        !outcome.stdout.contains(secret) && !outcome.stderr.contains(secret),
        "\(arguments): \(outcome)", sourceLocation: sourceLocation)
    }
  }

  /// A role with the password, owning a new database, reached over TCP.
  private func shopStore() throws -> (server: TemporaryServer, uri: String) {
    let server = try Postgres.server()
    let role = "shop_" + UUID().uuidString.prefix(8).lowercased()
    try server.sql("CREATE ROLE \(role) LOGIN PASSWORD '\(Self.password)'")
    let database = try server.createDatabase()
    try server.sql("ALTER DATABASE \"\(database)\" OWNER TO \(role)")
    try server.sql("ALTER SCHEMA public OWNER TO \(role)", database: database)
    return (server, "postgresql://\(role):\(Self.password)@127.0.0.1:\(server.port)/\(database)")
  }

  @Test func noCommandShowsThePasswordOfAWorkingStore() async throws {
    let (_, uri) = try shopStore()
    let created = try await JuiceMakerRun.run(["init"], store: uri)
    expectNoSecret(created, ["init"])
    #expect(created.status == 0, "\(created)")
    var commands: [[String]] = [
      ["stock"], ["menu"], ["order", "banana-juice"], ["stock", "add", "kiwi", "5"],
      ["stock", "set", "kiwi", "3", "--if-stock", "1"], ["history"], ["packs"], ["validate"],
      ["rush", "--store", uri, "--shops", "2", "--orders", "20"],
      ["history", "--since", "1d"], ["--shop", "nobody", "history"],
    ]
    commands += commands.map { ["--json"] + $0 }
    for arguments in commands {
      // `rush` takes only `--store` on its own command line.
      let store = arguments.contains("rush") ? nil : uri
      let outcome = try await JuiceMakerRun.run(arguments, store: store)
      expectNoSecret(outcome, arguments)
      // The rush may leave too little fruit for what follows it: refused is fine here.
      #expect([0, 1].contains(outcome.status), "\(arguments): \(outcome)")
      if arguments.contains("rush") {
        #expect(outcome.stdout.contains(":***@127.0.0.1"), "\(outcome)")
      }
    }
    let shop = try await JuiceMakerRun.run(["shop"], store: uri, input: "2\nq\n")
    expectNoSecret(shop, ["shop"])
    let variable = try await JuiceMakerRun.run(
      ["--json", "stock"], store: nil, environment: ["JUICE_MAKER_STORE": uri])
    #expect(variable.status == 0, "\(variable)")
    expectNoSecret(variable, ["JUICE_MAKER_STORE"])
  }

  @Test func noErrorShowsThePassword() async throws {
    let server = try Postgres.server()
    let port = server.port
    let password = Self.password
    let stores = [
      // A host that does not resolve, a port nothing listens on, a wrong password.
      "postgresql://shop:\(password)@nohost.invalid/juice",
      "postgresql://shop:\(password)@127.0.0.1:1/juice",
      "postgresql://postgres:\(password)@127.0.0.1:\(port)/postgres",
      "postgres://postgres:\(password)@127.0.0.1:\(port)/postgres?sslmode=disable",
      // Passwords as parameters, percent-encoded, and a malformed URI around them.
      "postgresql://postgres@127.0.0.1:\(port)/postgres?password=\(password)",
      "postgresql://postgres@127.0.0.1:1/postgres?sslpassword=\(password)&sslmode=disable",
      "postgresql://postgres@127.0.0.1:\(port)/postgres?pass%77ord=\(password)",
      "postgresql://postgres:s3cr3t%2Dpw@127.0.0.1:\(port)/postgres",
      "postgresql://shop:\(password)@127.0.0.1:1/juice?nonsense=1",
      "postgresql://shop:\(password)@[::1/juice",
    ]
    for store in stores {
      for arguments in [
        ["stock"], ["--json", "stock"], ["order", "banana-juice"], ["--json", "history"],
        ["history", "--since", "1d"], ["packs"], ["--store", store, "stock"],
        ["--json", "--store", store, "menu"], ["stock", store], ["--json", "order", store],
      ] {
        let outcome = try await JuiceMakerRun.run(arguments, store: store)
        expectNoSecret(outcome, arguments)
        if arguments != ["packs"] {
          #expect(outcome.status != 0, "\(arguments): \(outcome)")
        }
      }
      for arguments in [
        ["rush", "--store", store, "--orders", "10"],
        ["--json", "rush", "--store", store, "--orders", "10"],
      ] {
        let outcome = try await JuiceMakerRun.run(arguments, store: nil)
        expectNoSecret(outcome, arguments)
        #expect(outcome.status != 0, "\(arguments): \(outcome)")
      }
    }
  }

  /// A URI given where no store is expected is still never echoed with its password.
  @Test func aURIAnywhereOnTheCommandLineIsShownRedacted() async throws {
    let uri = "postgresql://shop:\(Self.password)@127.0.0.1:1/juice?sslmode=disable"
    for arguments in [
      ["--recipes", uri, "menu"], ["--json", "--recipes", uri, "menu"],
      ["--localization", uri, "menu"], ["--json", "--localization", uri, "menu"],
      ["--" + uri, "menu"], [uri], ["order", uri], ["--json", "stock", "add", uri, "1"],
      ["menu", "--store=" + uri, "--store=" + uri],
    ] {
      let outcome = try await JuiceMakerRun.run(arguments, store: nil)
      #expect([64, 65, 74].contains(outcome.status), "\(arguments): \(outcome)")
      expectNoSecret(outcome, arguments)
      #expect((outcome.stdout + outcome.stderr).contains("***"), "\(arguments): \(outcome)")
    }
  }

  @Test func anAtInThePasswordIsRefusedWithoutShowingAnyOfIt() async throws {
    let server = try Postgres.server()
    for store in [
      "postgresql://postgres:s3cr3t@pw-x@127.0.0.1:\(server.port)/postgres",
      "postgresql://postgres:s3cr3t@pw-x@nohost.invalid/postgres",
      "postgresql://127.0.0.1:\(server.port)?password=s3cr3t@pw-x",
    ] {
      for arguments in [["stock"], ["--json", "stock"], ["order", "banana-juice"]] {
        let outcome = try await JuiceMakerRun.run(arguments, store: store)
        #expect(outcome.status == 64, "\(arguments): \(outcome)")
        expectNoSecret(outcome, arguments, secrets: ["s3cr3t", "pw-x"])
        #expect((outcome.stdout + outcome.stderr).contains("%40"), "\(outcome)")
      }
    }
  }

  @Test func anUnsafePasswordFileIsNamedInOneMessageWithoutLibpqsWarning() async throws {
    let server = try Postgres.server()
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "SecretTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appending(path: "pgpass").path
    try Data("*:*:*:*:\(Self.password)\n".utf8).write(to: URL(fileURLWithPath: file))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    let store = "postgresql://postgres@127.0.0.1:\(server.port)/postgres?passfile=\(file)"
    for (arguments, environment) in [
      (["stock"], [:]), (["--json", "stock"], [:]),
      (["order", "banana-juice"], ["PGPASSFILE": file]),
    ] as [([String], [String: String])] {
      let uri = environment.isEmpty ? store : "postgresql://postgres@127.0.0.1:\(server.port)/x"
      let outcome = try await JuiceMakerRun.run(arguments, store: uri, environment: environment)
      #expect(outcome.status == 74, "\(outcome)")
      #expect(!outcome.stderr.contains("WARNING"), "\(outcome)")
      let message = arguments.first == "--json" ? outcome.stdout : outcome.stderr
      #expect(message.split(separator: "\n").count == 1, "\(outcome)")
      #expect(message.contains("was not read"), "\(outcome)")
      expectNoSecret(outcome, arguments)
    }
  }
}
