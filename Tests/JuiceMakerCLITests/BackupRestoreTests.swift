import Foundation
import Testing

/// `backup` and `restore` of a store file: SQLite's online backup API, while shops order.
struct BackupRestoreTests {
  @Test func aRoundTripKeepsTheLevelsTheJournalPricesAndLimits() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    for arguments in [
      ["--shop", "downtown", "order", "banana-juice", "--count", "2"],
      ["order", "strawberry-juice"], ["stock", "limits", "mango", "--min", "5"],
      ["stock", "remove", "kiwi", "8"],
    ] {
      _ = try await sandbox.run(arguments, environment: environment)
    }
    let file = sandbox.path("backups/monday.sqlite")
    try FileManager.default.createDirectory(
      atPath: sandbox.path("backups"), withIntermediateDirectories: true)
    let backup = try await sandbox.run(["backup", file], environment: environment)
    #expect(backup.status == 0, "\(backup)")
    #expect(backup.lines == ["Backed up \(sandbox.store) to \(file)."])
    let restored = sandbox.path("restored.sqlite")
    let restore = try await sandbox.run(
      ["--store", restored, "restore", file], environment: environment, useStore: false)
    #expect(restore.status == 0, "\(restore)")
    #expect(restore.lines == ["Restored \(file) into \(restored): 4 journal entries."])
    for arguments in [
      ["--json", "stock"], ["--json", "history"], ["--json", "report", "--by", "shop"],
      ["--json", "reorder"],
    ] {
      let before = try await sandbox.run(arguments, environment: environment)
      let after = try await sandbox.run(
        ["--store", restored] + arguments, environment: environment, useStore: false)
      #expect(before.stdout == after.stdout, "\(arguments)")
    }
    let low = try await sandbox.run(
      ["--store", restored, "stock", "--low"], environment: environment, useStore: false)
    #expect(low.lines == ["kiwis  2  low (minimum 3)"], "\(low)")
  }

  @Test func neitherOverwritesAnything() async throws {
    let sandbox = try Sandbox()
    let file = sandbox.path("backup.sqlite")
    try Data("keep me".utf8).write(to: URL(filePath: file))
    let backup = try await sandbox.run(["--json", "backup", file])
    #expect(backup.status == 65, "\(backup)")
    #expect(try backup.json().string("error") == "fileExists")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
    try FileManager.default.removeItem(atPath: file)
    _ = try await sandbox.run(["backup", file])
    _ = try await sandbox.run(["order", "kiwi-juice"])
    let restore = try await sandbox.run(["--json", "restore", file])
    #expect(restore.status == 65, "\(restore)")
    #expect(try restore.json().string("error") == "storeExists")
    let history = try await sandbox.run(["--json", "history"])
    #expect(try history.json().objects("entries").count == 1, "the store is unchanged")
    let notABackup = try await sandbox.run(
      ["--store", sandbox.path("new.sqlite"), "--json", "restore", sandbox.path("none")],
      useStore: false)
    #expect(notABackup.status != 0)
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("new.sqlite")))
  }

  @Test func aBackupWhileFourShopsOrderFailsNoOrder() async throws {
    let sandbox = try Sandbox()
    _ = try await sandbox.run(["stock", "set", "banana", "100000"])
    let outcomes = try await withThrowingTaskGroup(of: [Int32].self) { group in
      for shop in 0..<4 {
        group.addTask {
          var statuses: [Int32] = []
          for _ in 0..<12 {
            statuses.append(
              try await sandbox.run(["--shop", "shop-\(shop)", "order", "banana-juice"]).status)
          }
          return statuses
        }
      }
      group.addTask {
        var statuses: [Int32] = []
        for index in 0..<4 {
          statuses.append(
            try await sandbox.run(["backup", sandbox.path("b\(index).sqlite")]).status)
        }
        return statuses
      }
      var all: [Int32] = []
      for try await statuses in group { all += statuses }
      return all
    }
    #expect(outcomes.count == 52)
    #expect(outcomes.allSatisfy { $0 == 0 }, "\(outcomes)")
    let history = try await sandbox.run(["--json", "history", "--limit", "100"])
    #expect(try history.json().objects("entries").count == 49)
  }
}
