import Testing

@testable import JuiceMakerKit

struct RushTests {
  let catalog = FruitStoreTests.catalog

  func rush(_ store: FruitStore, shops: Int = 3, orders: Int = 2_000, seed: UInt64 = 7) -> Rush {
    Rush(catalog: catalog, store: store, shops: shops, orders: orders, seed: seed)
  }

  @Test(arguments: [Rush.Mode.sequential, .threads, .tasks])
  func everyOrderIsCountedAndStockIsConserved(mode: Rush.Mode) throws {
    let report = try rush(FruitStore(catalog: catalog)).run(mode)
    #expect(report.broken == nil)
    #expect(report.failure == nil)
    #expect(report.made + report.refused == 3 * 2_000)
    #expect(report.made > 0)
    #expect(report.refused > 0)
    #expect(report.juices.reduce(0) { $0 + $1.made } == report.made)
    // Every refusal names at least one short fruit and at most every fruit of the
    // longest recipe.
    let short = report.short.reduce(0, +)
    #expect(short >= report.refused)
    #expect(short <= report.refused * 2)
  }

  @Test func theFastPathAndTheJournaledPathAgreeOrderForOrder() throws {
    // A store with observers takes every order through the journaled path; the same
    // seed in sequential mode must give the same rush as over the fast path.
    let fast = try rush(FruitStore(catalog: catalog)).run(.sequential)
    let watchedStore = FruitStore(catalog: catalog)
    let observation = watchedStore.observe { _ in }
    let journaled = try rush(watchedStore).run(.sequential)
    observation.cancel()
    #expect(journaled.made == fast.made)
    #expect(journaled.refused == fast.refused)
    #expect(journaled.juices.map(\.made) == fast.juices.map(\.made))
    #expect(journaled.short == fast.short)
    #expect(journaled.final == fast.final)
  }

  @Test func theSameSeedGivesTheSameSequentialRush() throws {
    let first = try rush(FruitStore(catalog: catalog), seed: 11).run(.sequential)
    let second = try rush(FruitStore(catalog: catalog), seed: 11).run(.sequential)
    let other = try rush(FruitStore(catalog: catalog), seed: 12).run(.sequential)
    #expect(first.juices.map(\.made) == second.juices.map(\.made))
    #expect(first.final == second.final)
    #expect(first.short == second.short)
    #expect(first.juices.map(\.made) != other.juices.map(\.made) || first.final != other.final)
  }
}
