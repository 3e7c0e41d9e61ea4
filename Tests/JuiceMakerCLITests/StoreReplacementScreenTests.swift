import Foundation
import Testing

/// The full-screen shop when its store file is renamed under it: the status line says so
/// within a poll, while no one orders, and an order is not confirmed.
@Suite(.enabled(if: TmuxPane.enabled, "tmux is not installed"))
struct StoreReplacementScreenTests {
  @Test func aStoreRenamedUnderAnIdleShopShowsOnTheStatusLine() async throws {
    let sandbox = try Sandbox()
    #expect(try await sandbox.stock()["banana"] == 10, "the store exists")
    let pane = try TmuxPane(["--lang", "en"], in: sandbox)
    try await pane.waitFor(text: "Fresh juice")
    try FileManager.default.moveItem(atPath: sandbox.store, toPath: sandbox.store + ".moved")
    try await pane.waitFor(text: "The store file was replaced or removed")
    try pane.send("2", "Enter")
    let screen = try await pane.waitFor(text: "(1 waiting)")
    #expect(!screen.contains { $0.contains("Here is your Banana Juice") }, "\(screen)")
  }
}
