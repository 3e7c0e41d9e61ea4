import Foundation
import Testing

/// A write to standard output or standard error that fails ends the command with exit 74
/// and a message on the stream that still works; what the command did to the store
/// stands, and the message says where to see it.
struct OutputFailureTests {
  /// Runs the built `juice-maker` through `/bin/sh` with `redirection` applied to it.
  private func run(
    _ arguments: [String], redirecting redirection: String, in sandbox: Sandbox
  ) async throws -> Outcome {
    let binary = try #require(Paths.binary, "juice-maker is not built")
    return try await sandbox.run(
      ["-c", "exec \"$0\" \"$@\" " + redirection, binary.path, "--store", sandbox.store]
        + arguments,
      useStore: false, binary: URL(fileURLWithPath: "/bin/sh"))
  }

  @Test(arguments: [["stock"], ["menu"], ["--json", "stock"], ["--json", "history"], ["packs"]])
  func aFullStandardOutputIsAnIOError(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    let outcome = try await run(arguments, redirecting: ">/dev/full", in: sandbox)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(
      outcome.stderr == "Could not write to standard output: No space left on device.\n",
      "\(outcome)")
  }

  @Test func anOrderWhoseConfirmationCannotBeWrittenIsJournaledAndSaysSo() async throws {
    let sandbox = try Sandbox()
    let outcome = try await run(["order", "banana-juice"], redirecting: ">&-", in: sandbox)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.errorLines.count == 1, "\(outcome)")
    #expect(outcome.stderr.contains("standard output"), "\(outcome)")
    #expect(outcome.stderr.contains("juice-maker history"), "\(outcome)")
    let history = try await sandbox.history()
    #expect(history.count == 1)
    #expect(history.first?.string("juice") == "banana-juice")
    #expect(history.first?.string("outcome") == "done")
  }

  @Test func aStockEditIntoAFullDiskIsJournaledAndSaysSo() async throws {
    let sandbox = try Sandbox()
    let outcome = try await run(
      ["--json", "stock", "add", "kiwi", "5"], redirecting: ">/dev/full", in: sandbox)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.stderr.contains("juice-maker history"), "\(outcome)")
    #expect(try await sandbox.stock()["kiwi"] == 15)
  }

  @Test func aFailingStandardErrorIsSaidOnStandardOutput() async throws {
    let sandbox = try Sandbox()
    let outcome = try await run(["frobnicate"], redirecting: "2>/dev/full", in: sandbox)
    #expect(outcome.status == 74, "\(outcome)")
    #expect(
      outcome.stdout == "Could not write to standard error: No space left on device.\n",
      "\(outcome)")
  }

  /// A file that fills up part way through the document (here at 34 KiB, by `ulimit -f`)
  /// is left as it was, not holding the first kibibytes of it.
  @Test func aJSONDocumentIsWrittenWholeOrNotAtAll() async throws {
    let sandbox = try Sandbox()
    // 150 entries: about 36 KB of JSON, from a store of 32 KiB that the limit still lets
    // SQLite open.
    for _ in 0..<150 {
      #expect(await sandbox.runInProcess(["stock", "add", "kiwi", "1"]).status == 0)
    }
    let binary = try #require(Paths.binary, "juice-maker is not built")
    let file = sandbox.path("history.json")
    let outcome = try await sandbox.run(
      [
        "-c", "trap '' XFSZ; ulimit -f 34; exec \"$0\" \"$@\" >\"$OUT\"", binary.path,
        "--store", sandbox.store, "--json", "history", "--limit", "150",
      ], environment: ["OUT": file], useStore: false, binary: URL(fileURLWithPath: "/bin/bash"))
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.stderr.contains("standard output"), "\(outcome)")
    let written = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int
    #expect(written == 0)
  }

  /// A reader that went away still ends the command by `SIGPIPE`, as it ends `cat`.
  ///
  /// The command starts with `SIGPIPE` at its default action, as from a shell: a test that
  /// writes to a program's pipe ignores it in the test process, and children inherit that.
  @Test func aClosedPipeStillEndsTheCommandBySIGPIPE() async throws {
    let sandbox = try Sandbox()
    let binary = try #require(Paths.binary, "juice-maker is not built")
    let outcome = try await sandbox.run(
      [
        "-c",
        "{ sleep 0.3; exec env --default-signal=PIPE \"$0\" \"$@\"; } | true; exit ${PIPESTATUS[0]}",
        binary.path,
        "--store", sandbox.store, "menu",
      ], useStore: false, binary: URL(fileURLWithPath: "/bin/bash"))
    #expect(outcome.status == 141, "\(outcome)")
  }

  @Test func aClosedStandardOutputIsNeverTheStore() async throws {
    let sandbox = try Sandbox()
    // Closed before the store opens: the store must not be given descriptor 1.
    for _ in 0..<3 {
      let outcome = try await run(["stock", "add", "kiwi", "1"], redirecting: ">&-", in: sandbox)
      #expect(outcome.status == 74, "\(outcome)")
    }
    let check = try await sandbox.run(["stock"])
    #expect(check.status == 0, "\(check)")
    #expect(try await sandbox.stock()["kiwi"] == 13)
  }
}
