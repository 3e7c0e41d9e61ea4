import Foundation
import JuiceMakerKit
import Testing

/// The stock rules, without any storage.
struct StockLedgerTests {
  static let fruits: [Fruit.ID] = ["strawberry", "banana", "kiwi"]

  private func levels(_ values: [Int]) -> StockLevels {
    StockLevels(values, touching: Array(values.indices))
  }

  @Test func anOrderWithdrawsEveryFruitAtOnce() {
    var levels = levels([20, 5, 0])
    let outcome = StockLedger.order(
      [StockNeed(index: 0, amount: 10), StockNeed(index: 1, amount: 1)], count: 2,
      fruits: ["strawberry", "banana"], from: &levels)
    #expect(outcome == .done)
    #expect(levels.values == [0, 3, 0])
  }

  @Test func aRefusedOrderListsEveryShortFruitInRecipeOrderAndChangesNothing() {
    var levels = levels([5, 10, 1])
    let outcome = StockLedger.order(
      [
        StockNeed(index: 2, amount: 2), StockNeed(index: 1, amount: 1),
        StockNeed(index: 0, amount: 10),
      ],
      count: 1, fruits: ["kiwi", "banana", "strawberry"], from: &levels)
    #expect(
      outcome
        == .refused([
          Shortage(fruit: "kiwi", needed: 2, available: 1),
          Shortage(fruit: "strawberry", needed: 10, available: 5),
        ]))
    #expect(levels.values == [5, 10, 1])
  }

  @Test func aFruitTheStoreDoesNotHoldIsAlwaysShort() {
    var levels = levels([50, 50, 50])
    let outcome = StockLedger.order(
      [StockNeed(index: -1, amount: 1), StockNeed(index: 0, amount: 1)], count: 1,
      fruits: ["mango", "strawberry"], from: &levels)
    #expect(outcome == .refused([Shortage(fruit: "mango", needed: 1, available: 0)]))
    #expect(levels.values == [50, 50, 50])
  }

  @Test func theInMemoryPathFollowsTheSameRule() {
    let recipe = [StockNeed(index: 0, amount: 3), StockNeed(index: 2, amount: 1)]
    var values = [5, 0, 1]
    let made = recipe.withUnsafeBufferPointer { recipe in
      values.withUnsafeMutableBufferPointer { levels in
        (
          StockLedger.withdraw(recipe, count: 1, from: levels.baseAddress!),
          StockLedger.withdraw(recipe, count: 1, from: levels.baseAddress!)
        )
      }
    }
    #expect(made == (true, false))
    #expect(values == [2, 0, 0])
  }

  @Test func makeableCountIsTheSmallestShareOfAnyFruit() {
    let recipe = [StockNeed(index: 0, amount: 3), StockNeed(index: 1, amount: 2)]
    let levels = [10, 5, 0]
    #expect(StockLedger.makeableCount(recipe) { levels[$0] } == 2)
    #expect(StockLedger.makeableCount([StockNeed(index: 2, amount: 1)]) { levels[$0] } == 0)
    #expect(StockLedger.makeableCount([StockNeed(index: -1, amount: 1)]) { levels[$0] } == 0)
  }

  @Test func anAddThatWouldOverflowIsRefusedWithNoShortage() {
    var levels = levels([Int.max - 1, 0, 0])
    #expect(StockLedger.edit(.add("strawberry", count: 2), at: 0, of: &levels) == .refused([]))
    #expect(levels.values[0] == Int.max - 1)
    #expect(StockLedger.edit(.add("strawberry", count: 1), at: 0, of: &levels) == .done)
    #expect(levels.values[0] == Int.max)
  }

  @Test func aRemovalNeverGoesBelowZero() {
    var levels = levels([0, 4, 0])
    #expect(
      StockLedger.edit(.remove("banana", count: 5), at: 1, of: &levels)
        == .refused([Shortage(fruit: "banana", needed: 5, available: 4)]))
    #expect(StockLedger.edit(.remove("banana", count: 4), at: 1, of: &levels) == .done)
    #expect(levels.values == [0, 0, 0])
  }

  @Test func aCompareAndSetNamesTheLevelItFound() {
    var levels = levels([0, 0, 9])
    #expect(
      StockLedger.edit(.set("kiwi", level: 7, expected: 4), at: 2, of: &levels)
        == .conflict(fruit: "kiwi", expected: 4, actual: 9))
    #expect(levels.values[2] == 9)
    #expect(StockLedger.edit(.set("kiwi", level: 7, expected: 9), at: 2, of: &levels) == .done)
    #expect(StockLedger.edit(.set("kiwi", level: 3, expected: nil), at: 2, of: &levels) == .done)
    #expect(levels.values[2] == 3)
  }

  @Test func aUsedRequestIDReplaysOnlyTheSameAction() {
    let first = StockOperation(
      id: "X2", editor: "downtown", action: .order("banana-juice", count: 1))
    let entry = JournalEntry(
      sequence: 1, date: Date(), operation: first, outcome: .done, changes: [])
    #expect(StockLedger.replay(entry, for: first) == .replay(entry))
    let retriedElsewhere = StockOperation(
      id: "X2", editor: "airport", action: .order("banana-juice", count: 1))
    #expect(StockLedger.replay(entry, for: retriedElsewhere) == .replay(entry))
    let otherJuice = StockOperation(
      id: "X2", editor: "downtown", action: .order("kiwi-juice", count: 1))
    let otherCount = StockOperation(
      id: "X2", editor: "downtown", action: .order("banana-juice", count: 5))
    let otherEdit = StockOperation(id: "X2", editor: "downtown", action: .add("banana", count: 1))
    for operation in [otherJuice, otherCount, otherEdit] {
      #expect(StockLedger.replay(entry, for: operation) == .reused(entry))
    }
  }
}
