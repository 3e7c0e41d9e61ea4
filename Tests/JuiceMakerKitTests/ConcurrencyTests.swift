import Foundation
import JuiceMakerKit
import Synchronization
import Testing

struct ConcurrencyTests {
  /// Eight shops on eight OS threads order and restock against one store; the
  /// conservation law must hold exactly.
  @Test func manyShopsOnThreadsConserveStock() throws {
    let catalog = FruitStoreTests.catalog
    let store = FruitStore(catalog: catalog)
    let initial = try store.snapshot()
    let threads = 8
    let ordersPerShop = 20_000
    struct Tally: Sendable {
      var withdrawn: [Fruit.ID: Int] = [:]
      var restocked: [Fruit.ID: Int] = [:]
      var made = 0
      var refused = 0
      var wrongRefusals = 0
    }
    let tallies = Mutex<[Tally]>([])
    let group = DispatchGroup()
    for shopIndex in 0..<threads {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        let maker = JuiceMaker(name: "shop-\(shopIndex)", catalog: catalog, store: store)
        var tally = Tally()
        var random = SplitMix64(seed: UInt64(shopIndex))
        for step in 0..<ordersPerShop {
          if step % 50 == 0 {
            let fruit = catalog.fruits[Int(random.next() % 5)].id
            if (try? maker.restock(40, of: fruit)) != nil {
              tally.restocked[fruit, default: 0] += 40
            }
          }
          let juice = catalog.juices[Int(random.next() % UInt64(catalog.juices.count))]
          let count = Int(random.next() % 2) + 1
          do throws(JuiceMakerError) {
            try maker.make(juice, count: count)
            tally.made += 1
            for ingredient in juice.ingredients {
              tally.withdrawn[ingredient.fruit, default: 0] += ingredient.count * count
            }
          } catch {
            tally.refused += 1
            if case .outOfStock(let shortages) = error {
              if shortages.isEmpty || shortages.contains(where: { $0.available >= $0.needed }) {
                tally.wrongRefusals += 1
              }
            } else {
              tally.wrongRefusals += 1
            }
          }
        }
        tallies.withLock { $0.append(tally) }
      }
      thread.start()
    }
    group.wait()
    let all = tallies.withLock { $0 }
    #expect(all.count == threads)
    #expect(all.reduce(0) { $0 + $1.made + $1.refused } == threads * ordersPerShop)
    #expect(all.reduce(0) { $0 + $1.wrongRefusals } == 0)
    #expect(all.reduce(0) { $0 + $1.made } > 0)
    let final = try store.snapshot()
    for fruit in store.fruits {
      let withdrawn = all.reduce(0) { $0 + $1.withdrawn[fruit, default: 0] }
      let restocked = all.reduce(0) { $0 + $1.restocked[fruit, default: 0] }
      #expect(final[fruit, default: -1] >= 0)
      #expect(final[fruit] == initial[fruit, default: 0] + restocked - withdrawn, "\(fruit)")
    }
  }
}
