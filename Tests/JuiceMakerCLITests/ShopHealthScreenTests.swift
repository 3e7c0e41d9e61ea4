import CSQLite
import Foundation
import TemporaryPostgres
import Testing

/// The full-screen shop in a real terminal (a tmux pane) when another shop edits under
/// it and when the store stops answering: the screen stays, says so, and carries on.
@Suite(.enabled(if: TmuxPane.enabled, "tmux is not installed"))
struct ShopHealthScreenTests {
  /// Type 7 on kiwi while it shows 10; another shop adds 5, so kiwi is 15; Enter must not
  /// set 7 over the 15, and the row must show 15 and say why.
  @Test func aTypedLevelDoesNotOverwriteAnotherShopsEdit() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "en", "--shop", "downtown"], in: sandbox)
    try await pane.waitFor(text: "Fresh juice")
    try pane.send("s")
    try await pane.waitFor(text: "› strawberry  −  10 +")
    try pane.send("Down", "Down", "Down")
    try pane.type("7")
    try await pane.waitFor(text: "› kiwi        −  7_ +")
    let other = try await sandbox.run(["--shop", "airport", "stock", "add", "kiwi", "5"])
    #expect(other.status == 0, "\(other)")
    try await pane.waitFor(text: "airport: kiwi +5")
    try pane.send("Enter")
    let screen = try await pane.waitFor(text: "changed meanwhile")
    #expect(
      screen.contains {
        $0.contains("The stock of kiwi changed meanwhile: expected 10, found 15.")
      },
      "\(screen)")
    #expect(screen.contains("› kiwi        −  15 +"), "\(screen)")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
    #expect(try await sandbox.stock()["kiwi"] == 15)
  }

  /// The dialog after a refusal takes the catalog's yes-words, as the line shop does.
  @Test func neAnswersYesInTheFullScreenDialog() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "ko"], in: sandbox)
    try await pane.waitFor(text: "맛있는 쥬스를 만들어 드려요!")
    try pane.send("1", "Enter")
    try await pane.waitFor(text: "[ 예 ]")
    // No is chosen, so only the word can open the stock screen.
    try pane.send("Right")
    try await pane.waitFor(text: "[ 아니오 ]")
    try pane.type("네")
    try await pane.waitFor(text: "› 딸기      −  10 +")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }

  /// Another process holds the SQLite store's write lock: an order waits, the status line
  /// says the store is busy, the screen stays, and the order is made once the lock goes.
  @Test func aHeldSQLiteLockShowsBusyAndTheOrderIsMadeOnceAfterIt() async throws {
    let sandbox = try Sandbox()
    #expect(try await sandbox.stock()["banana"] == 10, "the store exists")
    let pane = try TmuxPane(["--lang", "en"], in: sandbox)
    try await pane.waitFor(text: "Fresh juice")
    let lock = try HeldLock(path: sandbox.store)
    try pane.send("2", "Enter")
    let busy = try await pane.waitFor(text: "The store is busy, retrying…")
    #expect(!busy.contains { $0.contains("Here is your Banana Juice") })
    // The screen still answers keys while it waits.
    try pane.send("Down")
    try await pane.waitFor(text: "› 3) Kiwi Juice")
    // Quitting would drop the waiting order, so it asks; Escape keeps the shop open.
    try pane.send("q")
    try await pane.waitFor(text: "Requests waiting for the store: 1. Quit without them?")
    try pane.send("Escape")
    try await pane.waitFor(noText: "Quit without them?")
    lock.release()
    try await pane.waitFor(text: "Here is your Banana Juice. Enjoy!")
    try await pane.waitFor(noText: "busy")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
    #expect(try await sandbox.stock()["banana"] == 8, "made once")
    let orders = try await sandbox.history().filter { ($0["kind"] as? String) == "order" }
    #expect(orders.count == 1, "\(orders)")
  }

  /// PostgreSQL restarts under an idle shop: the status line says it reconnects, the
  /// screen stays, and the shop works once the server is back.
  @Test(.enabled(if: TemporaryServer.isInstalled || TemporaryServer.isRequired))
  func aPostgreSQLRestartUnderAnIdleShopShowsReconnectingAndRecovers() async throws {
    let server = try TemporaryServer.start()
    defer { server.stop() }
    let uri = server.socketURI(database: try server.createDatabase())
    let sandbox = try Sandbox()
    let created = try await sandbox.run(["--store", uri, "init"], useStore: false)
    #expect(created.status == 0, "\(created)")
    let pane = try TmuxPane(["--lang", "en"], in: sandbox, store: uri)
    try await pane.waitFor(text: "Fresh juice")
    try server.crash()
    try await pane.waitFor(text: "Reconnecting to the store…")
    try server.restart()
    try await pane.waitFor(noText: "Reconnecting")
    try pane.send("2", "Enter")
    try await pane.waitFor(text: "Here is your Banana Juice. Enjoy!")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }
}

/// An SQLite connection of the test's own holding a store's write lock, as a backup or
/// someone in `sqlite3` does, until released.
final class HeldLock: @unchecked Sendable {
  private var handle: OpaquePointer?

  init(path: String) throws {
    var handle: OpaquePointer?
    try #require(sqlite3_open(path, &handle) == SQLITE_OK, "cannot open \(path)")
    self.handle = handle
    sqlite3_busy_timeout(handle, 10_000)
    try #require(
      sqlite3_exec(handle, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK,
      "cannot lock \(path)")
  }

  /// Ends the transaction and closes the connection.
  func release() {
    guard let handle else { return }
    sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    sqlite3_close(handle)
    self.handle = nil
  }

  deinit {
    release()
  }
}
