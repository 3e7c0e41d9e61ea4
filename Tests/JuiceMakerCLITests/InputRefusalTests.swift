import Foundation
import Testing

@testable import JuiceMakerCLI

/// Inputs refused before anything is read or written: one message naming the input and
/// what is wrong, exit 64, and the store untouched.
struct InputRefusalTests {
  @Test(arguments: [
    ["stock", "set", "kiwi", "-0"],
    ["stock", "set", "kiwi", "-00"],
    ["stock", "add", "kiwi", "+5"],
    ["stock", "set", "kiwi", "+0"],
    ["stock", "set", "kiwi", "7", "--if-stock", "-0"],
    ["order", "banana-juice", "--count", "+2"],
    ["history", "--limit", "+3"],
    ["rush", "--shops", "+2"],
  ])
  func aSignThatChangesNothingIsRefused(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.errorLines.count == 1, "\(outcome)")
    #expect(outcome.stderr.contains("without a sign"), "\(outcome)")
    #expect(try await sandbox.stock() == freshStock)
    #expect(try await sandbox.history().isEmpty)
  }

  @Test(arguments: [
    ("file:store.sqlite", "SQLite URI"), ("FILE:store.sqlite?mode=ro", "SQLite URI"),
    ("file:///tmp/x.sqlite", "SQLite URI"), (":memory:", "would keep nothing"),
  ])
  func aStoreThatIsNotAPathOrAPostgresURIIsRefused(store: String, reason: String) async throws {
    let sandbox = try Sandbox(.absent)
    for arguments in [["--store", store, "order", "banana-juice"], ["--json", "stock"]] {
      let outcome = try await sandbox.run(
        arguments, environment: ["JUICE_MAKER_STORE": store], useStore: false,
        workingDirectory: sandbox.directory)
      #expect(outcome.status == 64, "\(outcome)")
      let message = arguments.first == "--json" ? outcome.stdout : outcome.stderr
      #expect(message.contains(reason), "\(outcome)")
      #expect(message.contains(store), "\(outcome)")
    }
    // Nothing made: no decoy `file:` tree, no junk file, no default store.
    let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
    #expect(left.filter { !$0.hasSuffix(".out") && !$0.hasSuffix(".err") } == [])
    // The way to a file of that name, as the message says.
    let path = "./" + store.prefix { $0 != "?" && $0 != "/" }
    let created = try await sandbox.run(
      ["--store", path, "init"], useStore: false, workingDirectory: sandbox.directory)
    #expect(created.status == 0, "\(created)")
    let outcome = try await sandbox.run(
      ["--store", path, "stock", "add", "kiwi", "1"], useStore: false,
      workingDirectory: sandbox.directory)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: sandbox.path(String(path.dropFirst(2)))))
  }

  @Test(arguments: [
    "999999999999d", "99999999999999999999s", "10000-01-01", "0000-12-31",
    "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-00:01",
  ])
  func aTimeOutOfRangeIsAUsageErrorBeforeAnyStoreSeesIt(since: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["history", "--since", since])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    if since.hasPrefix("10000") {
      #expect(outcome.stderr.contains("takes a time such as"), "\(outcome)")
    } else {
      #expect(outcome.stderr.contains("is outside that range"), "\(outcome)")
    }
  }

  @Test(arguments: [
    "2026-11-23T09:30:00+25:00", "2026-11-23T09:30:00+14:01", "2026-11-23T09:30:00-14:30",
    "２０２６-11-23", "2026-11-23 ０９:30", "１d", "+2h", "-2h", "2026-02-30", "2026-11-23 24:00",
    "2026-11-23T09:30:00+0900Z",
  ])
  func aMalformedTimeIsRefused(since: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["history", "--since", since])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.errorLines.count == 1, "\(outcome)")
    #expect(outcome.stderr.contains(since), "\(outcome)")
  }

  @Test(arguments: [
    // In the gap as daylight saving time starts: the first instant after it, 03:00 EDT.
    ("2026-03-08 02:30", "2026-03-08T07:00:00Z"),
    ("2026-03-08T02:00:00", "2026-03-08T07:00:00Z"),
    // In the overlap as it ends: the later instant, 01:30 EST.
    ("2026-11-01 01:30", "2026-11-01T06:30:00Z"),
    // Either side of both.
    ("2026-03-08 01:59:59", "2026-03-08T06:59:59Z"),
    ("2026-03-08 03:00", "2026-03-08T07:00:00Z"),
    ("2026-11-01 00:59", "2026-11-01T04:59:00Z"),
    ("2026-11-01 02:00", "2026-11-01T07:00:00Z"),
  ])
  func aLocalTimeInAGapOrAnOverlapFollowsTheDocumentedRule(local: String, utc: String) throws {
    let zone = try #require(TimeZone(identifier: "America/New_York"))
    let date = try TimeText.date(from: local, for: "--since") { instant in
      Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }
    #expect(ISO8601DateFormatter().string(from: date) == utc)
  }

  /// Every time in range is read, a local time in a gap among them.
  @Test func theBinaryReadsEveryTimeInRange() async throws {
    let sandbox = try Sandbox()
    for since in [
      "2026-03-08 02:30", "2026-11-01 01:30", "2026-11-23T09:30:00+14:00",
      "2026-11-23T09:30:00-12:00", "2026-11-23T09:30:00.25Z", "2026-11-23", "2026-11-23 09:30",
      "2026-11-23T09:30:15", "700000d", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
    ] {
      let outcome = try await sandbox.run(
        ["history", "--since", since], environment: ["TZ": "America/New_York"])
      #expect(outcome.status == 0, "\(since): \(outcome)")
    }
  }

  @Test(arguments: [
    (["--shop", "nobody", "history"], "No orders or stock edits match the filter.\n"),
    (["history", "--since", "9999-01-01"], "No orders or stock edits match the filter.\n"),
    (["--lang", "ko", "--shop", "nobody", "history"], "조건에 맞는 주문이나 재고 수정이 없어요.\n"),
  ])
  func anEmptyFilteredHistorySaysNothingMatched(arguments: [String], expected: String)
    async throws
  {
    let sandbox = try Sandbox()
    #expect(try await sandbox.run(["order", "banana-juice"]).status == 0)
    let outcome = try await sandbox.run(arguments)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == expected)
  }
}
