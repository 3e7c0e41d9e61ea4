import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerStock

/// The one journal model's codec: what every persistent storage writes and reads.
struct JournalRowTests {
  static let order: [Fruit.ID: Int] = ["strawberry": 0, "banana": 1, "kiwi": 2]
  static let date = Date(timeIntervalSince1970: 1_700_000_000)

  private func commit(_ action: StockOperation.Action, _ outcome: StockOutcome, _ levels: [Int])
    -> StockCommit
  {
    let before = StockLevels([10, 10, 10], touching: [0, 1, 2])
    let after = StockLevels(levels, touching: [0, 1, 2])
    return StockCommit(
      operation: StockOperation(id: "r-1", editor: "downtown", action: action), outcome: outcome,
      before: before, after: after, fruits: ["strawberry", "banana", "kiwi"])
  }

  @Test func everyKindOfEntryRoundTrips() throws {
    let commits = [
      commit(.order("strawberry-banana-juice", count: 1), .done, [0, 9, 10]),
      commit(
        .order("kiwi-juice", count: 4),
        .refused([Shortage(fruit: "kiwi", needed: 12, available: 10)]), [10, 10, 10]),
      commit(.add("kiwi", count: 5), .done, [10, 10, 15]),
      commit(.remove("banana", count: 11), .refused([]), [10, 10, 10]),
      commit(
        .set("kiwi", level: 7, expected: 4), .conflict(fruit: "kiwi", expected: 4, actual: 10),
        [10, 10, 10]),
      commit(.set("kiwi", level: 7, expected: nil), .done, [10, 10, 7]),
      commit(.limits("kiwi", StockLimits(minimum: 2, par: 12)), .done, [10, 10, 10]),
    ]
    for (index, commit) in commits.enumerated() {
      let row = JournalRow(commit, sequence: Int64(index + 1), time: Self.date)
      let entry = commit.entry(sequence: Int64(index + 1), date: Self.date)
      #expect(try row.entry(order: Self.order) == entry)
    }
  }

  @Test func anOrdersPriceAndTheFruitItUsedAreKept() throws {
    let price = Money(minorUnits: 6000, currency: try Currency(code: "KRW"))
    let before = StockLevels([10, 10, 10], touching: [0, 1, 2])
    let commit = StockCommit(
      operation: StockOperation(
        id: "r-2", editor: "downtown", action: .order("strawberry-banana-juice", count: 1),
        price: price),
      outcome: .done, before: before, after: StockLevels([0, 9, 10], touching: [0, 1, 2]),
      fruits: ["strawberry", "banana", "kiwi"])
    let row = JournalRow(commit, sequence: 1, time: Self.date)
    #expect(row.price == 6000 && row.currency == "KRW" && row.used == 11 && row.par == nil)
    #expect(try row.entry(order: Self.order) == commit.entry(sequence: 1, date: Self.date))
    var damaged = row
    damaged.currency = "won"
    #expect(throws: JournalRow.Damage.self) { try damaged.entry(order: Self.order) }
  }

  @Test func theColumnsHoldTheModelsJSON() {
    let row = JournalRow(
      commit(
        .order("strawberry-banana-juice", count: 1),
        .refused([
          Shortage(fruit: "strawberry", needed: 10, available: 0),
          Shortage(fruit: "banana", needed: 1, available: 0),
        ]), [10, 10, 10]))
    #expect(row.shortages == #"[["strawberry",10,0],["banana",1,0]]"#)
    #expect(row.changes == "[]")
    let made = JournalRow(commit(.order("strawberry-banana-juice", count: 1), .done, [0, 9, 10]))
    #expect(made.changes == #"[["strawberry",10,0],["banana",10,9]]"#)
    #expect(made.shortages == nil && made.actual == nil && made.expected == nil)
  }

  @Test func whiteSpaceAsPostgreSQLWritesJSONIsRead() throws {
    var row = JournalRow(commit(.order("kiwi-juice", count: 1), .done, [10, 10, 7]))
    row.changes = #"[["kiwi", 10, 7]]"#
    #expect(
      try row.entry(order: Self.order).changes == [
        StockChange.Level(fruit: "kiwi", before: 10, after: 7)
      ])
  }

  @Test(arguments: [
    ("changes", "{}"), ("changes", #"[["kiwi",10]]"#), ("changes", #"[["Kiwi",1,2]]"#),
    ("changes", #"[["kiwi",1.5,2]]"#), ("changes", ""), ("action", "sell"),
    ("outcome", "maybe"), ("request_id", "has space"), ("subject", "Kiwi Juice"),
  ])
  func aDamagedColumnIsNamed(column: String, value: String) {
    var row = JournalRow(
      commit(.order("kiwi-juice", count: 1), .done, [10, 10, 7]), sequence: 9, time: Self.date)
    switch column {
    case "changes": row.changes = value
    case "action": row.action = value
    case "outcome": row.outcome = value
    case "request_id": row.requestID = value
    default: row.subject = value
    }
    #expect(throws: JournalRow.Damage.self) { try row.entry(order: Self.order) }
    do {
      _ = try row.entry(order: Self.order)
    } catch {
      #expect(error.message.hasPrefix("journal entry 9 is damaged: "))
    }
  }
}
