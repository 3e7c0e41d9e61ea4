import Foundation
import Testing

/// `history --since` gives the same answer on PostgreSQL as on SQLite: the time is read and
/// range-checked before the store sees it.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct TimeRangeTests {
  @Test func everyTimeInRangeIsReadAndNoneOutsideIt() async throws {
    let (_, uri, _) = try Postgres.newDatabase()
    try await JuiceMakerRun.initialize(uri)
    #expect(try await JuiceMakerRun.run(["order", "banana-juice"], store: uri).status == 0)
    for since in ["0001-01-01T00:00:00Z", "700000d", "1d", "2026-03-08 02:30"] {
      let outcome = try await JuiceMakerRun.run(
        ["--json", "history", "--since", since], store: uri)
      #expect(outcome.status == 0, "\(since): \(outcome)")
      let entries = try #require(try outcome.json()["entries"] as? [[String: Any]])
      #expect(entries.count == 1, "\(since): \(outcome)")
    }
    let future = try await JuiceMakerRun.run(
      ["history", "--since", "9999-12-31T23:59:59Z"], store: uri)
    #expect(future.status == 0, "\(future)")
    #expect(future.stdout == "No orders or stock edits match the filter.\n", "\(future)")
    for since in ["999999999999d", "0000-12-31", "2026-11-23T09:30:00+25:00"] {
      let outcome = try await JuiceMakerRun.run(["history", "--since", since], store: uri)
      #expect(outcome.status == 64, "\(since): \(outcome)")
      #expect(outcome.stderr.contains(since), "\(outcome)")
      #expect(!outcome.stderr.contains("timestamp"), "\(outcome)")
    }
  }
}
