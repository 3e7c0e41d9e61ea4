import Foundation
import Testing

/// Exit codes of the built executable: 0 success, 1 refused for stock, 64 usage, 65 data
/// error, 74 I/O error; and never a crash or a stack trace.
struct ExitCodeTests {
  @Test(
    arguments: [
      (["menu"], 0),
      (["stock", "add", "kiwi", "1"], 0),
      (["order", "strawberry-juice"], 1),
      (["stock", "remove", "mango", "11"], 1),
      (["frobnicate"], 64),
      (["--frobnicate"], 64),
      (["-x", "menu"], 64),
      (["order", "grape-juice"], 64),
      (["stock", "add", "grape", "1"], 64),
      (["order", "kiwi-juice", "--count", "1.5"], 64),
      (["order", "kiwi-juice", "--count", "0"], 64),
      (["order", "kiwi-juice", "--count", "-1"], 64),
      (["stock", "set", "kiwi", "-1"], 64),
      (["order", "kiwi-juice", "--count", "99999999999999999999"], 64),
      (["order", "strawberry-juice", "--count", "576460752303423488"], 64),
      (["stock", "add", "kiwi", "9223372036854775807"], 64),
      (["history", "--limit", "0"], 64),
      (["order", ""], 64),
      (["--count=", "order", "kiwi-juice"], 64),
    ] as [([String], Int32)])
  func commandEndsWithItsExitCode(arguments: [String], status: Int32) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == status, "\(outcome)")
    if status == 0 {
      #expect(outcome.stderr == "")
      #expect(!outcome.stdout.isEmpty)
    } else {
      // One clear sentence on standard error, nothing on standard output.
      #expect(outcome.stdout == "")
      #expect(outcome.errorLines.count == 1, "\(outcome)")
      #expect(outcome.stderr.hasSuffix(".\n"), "\(outcome)")
    }
  }

  @Test func invalidPackIsADataError() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.brokenPack(in: sandbox)
    let outcome = try await sandbox.run(data + ["menu"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.errorLines.first == "The recipe packs have 1 problem:")
    #expect(outcome.errorLines.count == 2)
    #expect(outcome.stderr.contains("broken.json"))
  }

  @Test func missingRecipesDirectoryIsADataError() async throws {
    let sandbox = try Sandbox()
    let missing = sandbox.path("no-such-recipes")
    let outcome = try await sandbox.run(["--recipes", missing, "menu"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(
      outcome.errorLines == [
        "The recipe packs have 1 problem:", "  \(missing): the recipes directory does not exist",
      ])
  }

  @Test func invalidCatalogIsADataError() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.brokenCatalog(in: sandbox)
    let outcome = try await sandbox.run(data + ["menu"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr.contains("Broken.xcstrings"))
  }

  @Test func storeThatIsNotADatabaseIsADataErrorAndLeftUnchanged() async throws {
    let sandbox = try Sandbox()
    let garbage = "this is not a juice-maker store\n"
    try garbage.write(toFile: sandbox.store, atomically: true, encoding: .utf8)
    let outcome = try await sandbox.run(["order", "kiwi-juice"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(
      outcome.stderr
        == "The store \(sandbox.store) is not a juice-maker store: the file is not an SQLite database. It was left unchanged.\n"
    )
    #expect(try String(contentsOfFile: sandbox.store, encoding: .utf8) == garbage)
  }

  @Test func directoryAsTheStoreIsADataError() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["--store", sandbox.directory.path, "stock"], useStore: false)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr.contains("it is not a regular file"))
  }

  @Test func storeThatCannotBeCreatedIsAnIOError() async throws {
    let sandbox = try Sandbox()
    let file = sandbox.path("plain-file")
    try "x".write(toFile: file, atomically: true, encoding: .utf8)
    let store = file + "/store.sqlite"
    let outcome = try await sandbox.run(["--store", store, "init"], useStore: false)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(
      outcome.stderr
        == "The store \(store) cannot be used: cannot create the store file: Not a directory.\n")
    let opening = try await sandbox.run(["--store", store, "stock"], useStore: false)
    #expect(opening.status == 74, "\(opening)")
    #expect(opening.stderr.contains("Not a directory"), "\(opening)")
    let json = try await sandbox.run(["--json", "--store", store, "stock"], useStore: false)
    #expect(json.status == 74, "\(json)")
    #expect(try json.json().string("error") == "storeUnavailable")
  }

  @Test func readOnlyStoreIsAnIOError() async throws {
    let sandbox = try Sandbox()
    _ = await sandbox.runInProcess(["stock"])
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.store)
    let outcome = try await sandbox.run(["order", "kiwi-juice"])
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr.contains("read-only"))
  }

  @Test(arguments: [
    ["order", String(repeating: "딸기", count: 10_000)],
    ["order", "\u{1B}[2J\u{1B}[31mred\u{7}"],
    ["--lang", String(repeating: "x", count: 10_000), "menu"],
    ["--lang", "../../../../etc/passwd", "menu"],
    ["--shop", "\u{1B}]0;title\u{7}", "order", "kiwi-juice"],
    ["--", "--json"],
    ["order", "--", "-1"],
  ])
  func oddInputNeverCrashes(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(arguments)
    #expect([0, 1, 64, 65, 74].contains(outcome.status), "\(outcome)")
    for trace in ["Fatal error", "Stack dump", "Current stack trace", "Illegal instruction"] {
      #expect(!outcome.stderr.contains(trace), "\(outcome)")
    }
    // Control characters from the command line are escaped, never echoed raw.
    #expect(!outcome.stderr.contains("\u{1B}"))
    #expect(!outcome.stdout.contains("\u{1B}"))
    // Very long input is cut short in messages.
    #expect(outcome.stderr.utf8.count < 2_000, "\(outcome.stderr.prefix(500))")
  }

  @Test func escapedControlCharactersAreShown() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["order", "\u{1B}[31mred"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(
      outcome.stderr
        == "There is no juice “\\u{1B}[31mred” on the menu. Run juice-maker menu to see it.\n")
  }
}
