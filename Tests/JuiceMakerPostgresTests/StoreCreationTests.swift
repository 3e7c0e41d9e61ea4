import Foundation
import TemporaryPostgres
import Testing

/// A PostgreSQL store is created on purpose, by `init`: an empty database is never taken for a
/// new store, so a mistyped database name cannot split a chain's stock.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct StoreCreationTests {
  @Test(arguments: [
    ["stock"], ["menu"], ["order", "banana-juice"], ["stock", "add", "kiwi", "5"], ["history"],
    ["shop"], ["rush", "--shops", "2", "--orders", "5"],
  ])
  func anEmptyDatabaseIsRefusedAndLeftEmpty(arguments: [String]) async throws {
    let (server, _, database) = try Postgres.newDatabase()
    let store = server.tcpURI(database: database)
    // The password is hidden, and the URI quoted for the shell, `*` and all.
    let shown = store.replacing(server.password, with: "***")
    let outcome = try await JuiceMakerRun.run(arguments, store: store, input: "1\nq\n")
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stdout == "", "\(outcome)")
    #expect(
      outcome.stderr
        == "The database \(shown) holds no store. Create one with: juice-maker init --store '\(shown)'\n"
    )
    #expect(try Audit(server.socketURI(database: database)).tables() == [])
    if arguments != ["shop"] {
      let json = try await JuiceMakerRun.run(["--json"] + arguments, store: store)
      #expect(json.status == 65, "\(json)")
      #expect(try json.json()["error"] as? String == "storeMissing", "\(json)")
    }
    #expect(try Audit(server.socketURI(database: database)).tables() == [])
  }

  @Test func initCreatesTheStoreOnceAndASecondInitLeavesItUnchanged() async throws {
    let (server, _, database) = try Postgres.newDatabase()
    let store = server.tcpURI(database: database)
    let shown = store.replacing(server.password, with: "***")
    let created = try await JuiceMakerRun.run(["init"], store: store)
    #expect(created.status == 0, "\(created)")
    #expect(
      created.stdout.split(separator: "\n").map(String.init) == [
        "Created the store \(shown) with the initial stock:", "  strawberries  10",
        "  bananas       10", "  pineapples    10", "  kiwis         10", "  mangoes       10",
      ], "\(created)")
    #expect(created.stderr == "")
    let audit = try Audit(server.socketURI(database: database))
    #expect(
      try audit.tables() == [
        "journal", "juice_maker_meta", "juice_maker_migrations", "menu_file", "menu_publication",
        "stock",
      ])
    #expect(try audit.levels().values.allSatisfy { $0 == 10 })
    #expect(try await JuiceMakerRun.run(["stock", "add", "kiwi", "5"], store: store).status == 0)

    let again = try await JuiceMakerRun.run(["init"], store: store)
    #expect(again.status == 65, "\(again)")
    #expect(again.stdout == "")
    #expect(again.stderr == "There is a store at \(shown) already; init left it unchanged.\n")
    let json = try await JuiceMakerRun.run(["--json", "init"], store: store)
    #expect(json.status == 65, "\(json)")
    #expect(try json.json()["error"] as? String == "storeExists", "\(json)")
    #expect(try audit.levels()["kiwi"] == 15)
    #expect(try audit.journalCount() == 1)
    for outcome in [created, again, json] {
      #expect(
        !outcome.stdout.contains(server.password) && !outcome.stderr.contains(server.password))
    }
  }
}
