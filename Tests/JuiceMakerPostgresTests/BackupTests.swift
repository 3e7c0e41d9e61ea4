import Foundation
import TemporaryPostgres
import Testing

/// `backup` and `restore` of a PostgreSQL store: a logical export, restored into an empty
/// database with its levels, journal, prices and limits.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct BackupTests {
  @Test func aRoundTripKeepsTheLevelsTheJournalAndTheLimits() async throws {
    let (server, _, database) = try Postgres.newDatabase()
    let store = server.tcpURI(database: database)
    try await JuiceMakerRun.initialize(store)
    for arguments in [
      ["order", "banana-juice", "--count", "2"], ["order", "strawberry-juice"],
      ["stock", "limits", "kiwi", "--min", "3", "--par", "12"], ["stock", "remove", "kiwi", "8"],
      ["stock", "set", "mango", "4", "--if-stock", "9"],
    ] {
      _ = try await JuiceMakerRun.run(arguments, store: store)
    }
    let directory = FileManager.default.temporaryDirectory.appending(
      path: "juice-maker-backup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appending(path: "store.jsonl").path
    let backup = try await JuiceMakerRun.run(["backup", file], store: store)
    #expect(backup.status == 0, "\(backup)")
    #expect(!backup.stdout.contains(server.password))
    let again = try await JuiceMakerRun.run(["--json", "backup", file], store: store)
    #expect(again.status == 65)
    #expect(try again.json()["error"] as? String == "fileExists")
    let (_, _, target) = try Postgres.newDatabase()
    let restored = server.tcpURI(database: target)
    let restore = try await JuiceMakerRun.run(["restore", file], store: restored)
    #expect(restore.status == 0, "\(restore)")
    for arguments in [["--json", "stock"], ["--json", "history", "--limit", "50"]] {
      let before = try await JuiceMakerRun.run(arguments, store: store)
      let after = try await JuiceMakerRun.run(arguments, store: restored)
      #expect(before.stdout == after.stdout, "\(arguments)")
    }
    let low = try await JuiceMakerRun.run(["--json", "stock", "--low"], store: restored)
    let fruits = try #require(try low.json()["fruits"] as? [[String: Any]])
    #expect(fruits.compactMap { $0["id"] as? String } == ["kiwi"])
    // New entries continue the journal's numbers.
    _ = try await JuiceMakerRun.run(["order", "banana-juice"], store: restored)
    let newest = try await JuiceMakerRun.run(
      ["--json", "history", "--limit", "1"], store: restored)
    let entry = try #require((try newest.json()["entries"] as? [[String: Any]])?.first)
    #expect(entry["id"] as? Int == 6)
    let twice = try await JuiceMakerRun.run(["--json", "restore", file], store: restored)
    #expect(twice.status == 65, "\(twice)")
  }
}
