import Foundation
import Testing

/// `report`: counts by the store, as a table with a chart, JSON or CSV.
struct ReportCommandTests {
  /// Three banana juices at downtown, two mango juices at the airport, one refusal.
  private func sellSome(_ sandbox: Sandbox, _ environment: [String: String?]) async throws {
    for (shop, juice, count) in [
      ("downtown", "banana-juice", "3"), ("airport", "mango-juice", "2"),
      ("airport", "strawberry-juice", "1"),
    ] {
      _ = try await sandbox.run(
        ["--shop", shop, "order", juice, "--count", count], environment: environment)
    }
  }

  @Test func aReportIsATableWithABarChartAndATotal() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    try await sellSome(sandbox, environment)
    let outcome = try await sandbox.run(
      ["report"], environment: environment.merging(["COLUMNS": "80"]) { $1 })
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.lines == [
        "Juice             Made  Refused  Takings  Fruit used",
        "Banana Juice         3        0  ₩12,000           6  ██████████████████████████",
        "Mango Juice          2        0  ₩10,000           6  █████████████████████▋",
        "Strawberry Juice     0        1                    0",
        "Total                5        1  ₩22,000          12",
      ], "\(outcome)")
    #expect(!outcome.stdout.contains("\u{1B}"), "no colour when not on a terminal")
  }

  @Test func aReportGroupsByShopFruitHourAndDayAndFilters() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    try await sellSome(sandbox, environment)
    let shops = try await sandbox.run(
      ["--json", "report", "--by", "shop"], environment: environment)
    let rows = try shops.json().objects("rows")
    #expect(rows.map { $0.string("key") } == ["airport", "downtown"])
    #expect(rows.map { $0.int("made") } == [2, 3])
    #expect(rows.map { $0.int("refused") } == [1, 0])
    let fruits = try await sandbox.run(
      ["--json", "report", "--by", "fruit"], environment: environment)
    let used = try fruits.json().objects("rows").map {
      [$0.string("key") ?? "": $0.int("used") ?? 0]
    }
    #expect(used == [["banana": 6], ["mango": 6], ["strawberry": 0]])
    for grouping in ["hour", "day"] {
      let outcome = try await sandbox.run(
        ["--json", "report", "--by", grouping], environment: environment)
      let total = try #require(outcome.json()["total"] as? [String: Any])
      #expect(total.int("made") == 5 && total.int("refused") == 1, "\(grouping)")
    }
    let airport = try await sandbox.run(
      ["--json", "--shop", "airport", "report"], environment: environment)
    #expect(
      try airport.json().objects("rows").map { $0.string("key") } == [
        "mango-juice", "strawberry-juice",
      ])
    let future = try await sandbox.run(
      ["report", "--since", "2099-01-01"], environment: environment)
    #expect(future.lines == ["No orders match."])
    let past = try await sandbox.run(
      ["--json", "report", "--until", "2000-01-01"], environment: environment)
    #expect(try past.json().objects("rows").isEmpty)
  }

  @Test func aReportInCSVFollowsRFC4180() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    try await sellSome(sandbox, environment)
    let outcome = try await sandbox.run(
      ["report", "--by", "shop", "--csv"], environment: environment)
    #expect(
      outcome.stdout
        == "key,name,made,refused,takings,currency,used\r\nairport,airport,2,1,10000,KRW,6\r\n"
        + "downtown,downtown,3,0,12000,KRW,6\r\n")
  }

  @Test(arguments: [
    (["report", "--by", "week"], "invalidChoice"),
    (["report", "--since", "yesterday"], "invalidTime"),
    (["report", "--csv", "--json"], "conflictingOptions"),
  ])
  func badReportOptionsAreUsageErrors(arguments: [String], code: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      arguments + (arguments.contains("--json") ? [] : ["--json"]))
    #expect(outcome.status == 64, "\(outcome)")
    #expect(try outcome.json().string("error") == code, "\(outcome)")
  }

  @Test func historyHasAHeaderPagesAndStopsAtUntil() async throws {
    let sandbox = try Sandbox()
    for _ in 0..<4 { _ = try await sandbox.run(["order", "banana-juice"]) }
    let page = try await sandbox.run(["history", "--limit", "3"])
    #expect(page.lines.first?.hasPrefix("Time") == true, "\(page)")
    #expect(page.lines.count == 5, "\(page)")
    #expect(page.lines.last == "1 more… (--limit N shows more)")
    let json = try await sandbox.run(["--json", "history", "--limit", "3"])
    #expect(try json.json().int("more") == 1)
    let none = try await sandbox.run(["history", "--until", "2000-01-01"])
    #expect(none.lines == ["No orders or stock edits match the filter."], "\(none)")
    let all = try await sandbox.run(["--json", "history", "--until", "2099-01-01"])
    #expect(try all.json().objects("entries").count == 4)
  }
}
