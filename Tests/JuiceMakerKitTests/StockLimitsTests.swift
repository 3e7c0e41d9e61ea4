import JuiceMakerKit
import Testing

@testable import JuiceMakerStock

/// The low-stock and reorder rules, and the limits packs and stores give fruits.
struct StockLimitsTests {
  @Test(arguments: [(0, true), (2, true), (3, true), (4, false), (30, false)])
  func aFruitIsLowAtOrBelowItsMinimum(level: Int, low: Bool) {
    #expect(StockLimits(minimum: 3, par: 10).isLow(level) == low)
  }

  @Test(arguments: [(0, 10), (3, 7), (10, 0), (12, 0)])
  func aReorderBringsTheLevelBackToPar(level: Int, buy: Int) {
    #expect(StockLimits(minimum: 3, par: 10).reorder(at: level) == buy)
  }

  @Test func onlyTheOrderThatCrossesTheMinimumRaisesAnAlert() {
    let limits = StockLimits(minimum: 3, par: 10)
    let levels = [10, 7, 4, 1, 0, 5, 2]
    let crossings = zip(levels, levels.dropFirst()).filter {
      limits.crossesMinimum(from: $0, to: $1)
    }
    #expect(crossings.map(\.1) == [1, 2])
  }

  @Test func missingLimitsAreFilledInOnce() {
    #expect(StockLimits.resolving(minimum: nil, par: nil, initialStock: 10) == nil)
    #expect(
      StockLimits.resolving(minimum: 3, par: nil, initialStock: 10)
        == StockLimits(minimum: 3, par: 10))
    #expect(
      StockLimits.resolving(minimum: 30, par: nil, initialStock: 10)
        == StockLimits(minimum: 30, par: 30))
    #expect(
      StockLimits.resolving(minimum: nil, par: 8, initialStock: 10)
        == StockLimits(minimum: 0, par: 8))
    let current = StockLimits(minimum: 2, par: 20)
    #expect(
      StockLimits.resolving(minimum: 5, par: nil, current: current, initialStock: 10)
        == StockLimits(minimum: 5, par: 20))
    #expect(StockLimits.resolving(minimum: 5, par: 4, initialStock: 10) == nil)
  }

  @Test func packsGiveFruitsTheirLimits() throws {
    let pack = PackSource.bytes(
      Array(
        #"{"fruits": [{"id": "kiwi", "min": 3, "par": 12}, {"id": "mango", "stock": 6, "min": 2}, {"id": "fig"}]}"#
          .utf8), name: "pack.json")
    let catalog = try Catalog.load([pack])
    #expect(
      catalog.fruits.map(\.limits) == [
        StockLimits(minimum: 3, par: 12), StockLimits(minimum: 2, par: 6), nil,
      ])
  }

  @Test(arguments: [
    (
      #"{"fruits": [{"id": "kiwi", "min": -1}]}"#, "fruits[0].min",
      CatalogError.Reason.negativeLimit(-1)
    ),
    (
      #"{"fruits": [{"id": "kiwi", "min": 5, "par": 4}]}"#, "fruits[0].par",
      .parBelowMinimum(minimum: 5, par: 4)
    ),
    (#"{"fruits": [{"id": "kiwi", "par": 1.5}]}"#, "fruits[0].par", .notWholeNumber("1.5")),
  ])
  func badLimitsAreLocated(json: String, path: String, reason: CatalogError.Reason) throws {
    let error = try #require(throws: CatalogError.self) {
      try Catalog.load([.bytes(Array(json.utf8), name: "pack.json")])
    }
    #expect(error.problems == [CatalogError.Problem(file: "pack.json", path: path, reason: reason)])
  }

  @Test func aStoresLimitsOverrideThePacksAndAreJournaled() throws {
    let catalog = try Catalog(
      fruits: [
        Fruit(id: "kiwi", initialStock: 10, limits: StockLimits(minimum: 3, par: 10)),
        Fruit(id: "mango", initialStock: 10),
      ],
      juices: [])
    let store = FruitStore(catalog: catalog)
    #expect(try store.limits(over: catalog) == [StockLimits(minimum: 3, par: 10), nil])
    try store.setLimits(StockLimits(minimum: 1, par: 4), of: "mango")
    #expect(
      try store.limits(over: catalog) == [
        StockLimits(minimum: 3, par: 10), StockLimits(minimum: 1, par: 4),
      ])
    let entry = try #require(try store.journal().first)
    #expect(entry.operation.action == .limits("mango", StockLimits(minimum: 1, par: 4)))
    #expect(entry.changes.isEmpty)
    #expect(throws: FruitStoreError.unknownFruit("fig")) {
      try store.setLimits(StockLimits(minimum: 1, par: 4), of: "fig")
    }
  }
}
