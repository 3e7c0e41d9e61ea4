import Foundation
import Synchronization

/// A rush of orders from many shops against one store.
package struct Rush: Sendable {
  /// How a rush runs its shops.
  package enum Mode: String, Sendable, Encodable {
    /// Shops take turns on one thread; the result depends only on the seed.
    case sequential
    /// One OS thread per shop.
    case threads
    /// One task per shop, on the cooperative pool.
    case tasks
  }

  /// What one shop or one juice saw.
  package struct Tally: Sendable, Encodable {
    package var made = 0
    package var refused = 0
  }

  /// The outcome of a rush.
  package struct Report: Sendable {
    package var shops: [Tally]
    package var juices: [Tally]
    package var made: Int { shops.reduce(0) { $0 + $1.made } }
    package var refused: Int { shops.reduce(0) { $0 + $1.refused } }
    package var seconds: Double
    /// The first failure of a shop other than a refusal for stock, if any.
    package var failure: JuiceMakerError?
    /// Every level after the rush.
    package var final: [Int]
    /// What broke the conservation law, or `nil` when it held.
    package var broken: String?
  }

  /// What one shop did, for the conservation check.
  package struct ShopResult: Sendable {
    package var tally = Tally()
    package var juices: [Tally]
    package var withdrawn: [Int]
    package var restocked: [Int]
    /// The first order or restock that failed for another reason than stock; the
    /// shop stops there.
    package var failure: JuiceMakerError?
  }

  package let catalog: Catalog
  package let store: FruitStore
  package let shops: Int
  package let orders: Int
  package let seed: UInt64
  /// Every this many orders a shop restocks one fruit.
  package static let restockInterval = 10

  /// Creates a rush.
  ///
  /// - Parameters:
  ///   - catalog: The menu every shop uses.
  ///   - store: The store the shops share.
  ///   - shops: How many shops.
  ///   - orders: How many orders each shop places.
  ///   - seed: The seed of the shops' random choices.
  package init(catalog: Catalog, store: FruitStore, shops: Int, orders: Int, seed: UInt64) {
    self.catalog = catalog
    self.store = store
    self.shops = shops
    self.orders = orders
    self.seed = seed
  }

  /// Runs the rush and checks that every level equals initial + restocked − withdrawn.
  ///
  /// No thread waits for the shops. `.tasks` runs one child task per shop and awaits the
  /// group. `.threads` starts one OS thread per shop, so the shops run at once however
  /// narrow the cooperative pool is, and suspends until the last of them resumes it,
  /// holding no thread meanwhile. `.sequential` runs the shops in turn on the calling
  /// task. The function is `@concurrent`: it leaves the caller's actor, so a rush started
  /// on the main actor does not hold it.
  ///
  /// - Parameter mode: How the shops run.
  /// - Returns: The tallies, the final levels and the outcome of the conservation check.
  /// - Throws: `FruitStoreError` when the levels cannot be read before or after the
  ///   rush; a shop's own failure is in the report's `failure`.
  @concurrent
  package func run(_ mode: Mode) async throws(FruitStoreError) -> Report {
    let initial = try store.levels()
    let start = ContinuousClock.now
    var results: [ShopResult]
    switch mode {
    case .sequential:
      var states = (0..<shops).map { ShopState(rush: self, index: $0) }
      for _ in 0..<orders {
        for index in states.indices where !states[index].stopped {
          states[index].step()
        }
      }
      results = states.map(\.result)
    case .threads:
      results = await withCheckedContinuation { finished in
        guard shops > 0 else { return finished.resume(returning: []) }
        let collected = Mutex(
          (results: [ShopResult?](repeating: nil, count: shops), running: shops))
        for index in 0..<shops {
          let thread = Thread {
            var state = ShopState(rush: self, index: index)
            for _ in 0..<orders where !state.stopped { state.step() }
            let result = state.result
            let all: [ShopResult]? = collected.withLock { collected in
              collected.results[index] = result
              collected.running -= 1
              return collected.running == 0 ? collected.results.compactMap { $0 } : nil
            }
            if let all { finished.resume(returning: all) }
          }
          thread.start()
        }
      }
    case .tasks:
      results = await withTaskGroup(of: (Int, ShopResult).self) { group in
        for index in 0..<shops {
          group.addTask {
            var state = ShopState(rush: self, index: index)
            for _ in 0..<orders where !state.stopped { state.step() }
            return (index, state.result)
          }
        }
        var collected = [ShopResult?](repeating: nil, count: shops)
        for await (index, result) in group {
          collected[index] = result
        }
        return collected.compactMap { $0 }
      }
    }
    let elapsed = ContinuousClock.now - start
    let final = try store.levels()
    var broken: [String] = []
    for (index, fruit) in store.fruits.enumerated() {
      // Wrapping sums: with a pack's huge counts the tallies may pass Int.max, and the
      // law still holds modulo 2^64.
      let withdrawn = results.reduce(0) { $0 &+ $1.withdrawn[index] }
      let restocked = results.reduce(0) { $0 &+ $1.restocked[index] }
      let expected = initial[index] &+ restocked &- withdrawn
      if final[index] != expected || final[index] < 0 {
        broken.append("\(fruit): expected \(expected), found \(final[index])")
      }
    }
    var juices = [Tally](repeating: Tally(), count: catalog.juices.count)
    for result in results {
      for (index, tally) in result.juices.enumerated() {
        juices[index].made += tally.made
        juices[index].refused += tally.refused
      }
    }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Report(
      shops: results.map(\.tally), juices: juices, seconds: seconds,
      failure: results.lazy.compactMap(\.failure).first, final: final,
      broken: broken.isEmpty ? nil : broken.joined(separator: "; "))
  }

  /// One shop's state during a rush: its random numbers and its tallies, kept by
  /// index so a step hashes nothing.
  package struct ShopState {
    let shop: JuiceMaker
    let weights: [Int]
    let totalWeight: Int
    /// Each juice's ingredients as (store level index, count); fruits the store does
    /// not hold are left out. Laid out flat, juice after juice, so a step copies no
    /// inner array.
    let ingredients: [(index: Int, count: Int)]
    /// Where each juice's ingredients start in `ingredients`; one extra entry marks the end.
    let ingredientStarts: [Int]
    /// The store level index of each catalog fruit, or `nil`.
    let fruitIndices: [Int?]
    /// Where a refused order's levels land.
    let scratch: Scratch
    /// Whether the shop stopped on a failure other than a refusal for stock.
    package var stopped = false
    package var random: SplitMix64
    package var result: ShopResult
    package var steps = 0

    package init(rush: Rush, index: Int) {
      shop = JuiceMaker(name: "shop-\(index + 1)", catalog: rush.catalog, store: rush.store)
      // Juices that take fewer fruits are ordered more often, as on a real menu.
      weights = rush.catalog.juices.map { juice in
        // Counts are capped before adding, so a pack's huge counts cannot overflow.
        let fruits = juice.ingredients.reduce(0) { $0 + min($1.count, 32) }
        return max(1, 32 / max(1, fruits))
      }
      totalWeight = weights.reduce(0, +)
      let store = rush.store
      var ingredients: [(index: Int, count: Int)] = []
      var ingredientStarts = [0]
      for juice in rush.catalog.juices {
        for ingredient in juice.ingredients {
          if let index = store.index(of: ingredient.fruit) {
            ingredients.append((index: index, count: ingredient.count))
          }
        }
        ingredientStarts.append(ingredients.count)
      }
      self.ingredients = ingredients
      self.ingredientStarts = ingredientStarts
      fruitIndices = rush.catalog.fruits.map { store.index(of: $0.id) }
      scratch = Scratch(count: shop.longestRecipe)
      random = SplitMix64(seed: rush.seed &+ UInt64(index) &* 0x9E37_79B9)
      result = ShopResult(
        juices: [Tally](repeating: Tally(), count: rush.catalog.juices.count),
        withdrawn: [Int](repeating: 0, count: rush.store.fruits.count),
        restocked: [Int](repeating: 0, count: rush.store.fruits.count))
    }

    /// Places one order, restocking one fruit first every `restockInterval` steps.
    ///
    /// Bookkeeping is by index, and a refusal's levels land in `available`, which the
    /// shop owns: a step allocates nothing and hashes nothing.
    package mutating func step() {
      steps += 1
      if steps % Rush.restockInterval == 0, !fruitIndices.isEmpty {
        let fruit = Int(random.next() % UInt64(fruitIndices.count))
        let amount = Int(random.next() % 20) + 1
        do throws(JuiceMakerError) {
          if let index = fruitIndices[fruit] {
            do {
              try shop.store.restock(amount, at: index, by: shop.name)
            } catch {
              throw JuiceMakerError(error)
            }
            result.restocked[index] &+= amount
          } else {
            try shop.restock(amount, of: shop.catalog.fruits[fruit].id)
          }
        } catch {
          // A pack's huge stock may overflow; anything else ends the shop's rush.
          if case .overflow = error {} else { stop(error) }
        }
      }
      guard totalWeight > 0 else { return }
      var pick = Int(random.next() % UInt64(totalWeight))
      var juiceIndex = 0
      while pick >= weights[juiceIndex] {
        pick -= weights[juiceIndex]
        juiceIndex += 1
      }
      do throws(JuiceMakerError) {
        let made = try shop.attempt(juiceIndex, available: scratch.available)
        guard made else {
          result.tally.refused += 1
          result.juices[juiceIndex].refused += 1
          return
        }
        result.tally.made += 1
        result.juices[juiceIndex].made += 1
        for position in ingredientStarts[juiceIndex]..<ingredientStarts[juiceIndex + 1] {
          let ingredient = ingredients[position]
          result.withdrawn[ingredient.index] &+= ingredient.count
        }
      } catch {
        stop(error)
      }
    }

    mutating func stop(_ error: JuiceMakerError) {
      result.failure = error
      stopped = true
    }
  }

  /// Memory a shop owns for a refused order's levels, one per ingredient of the
  /// longest recipe.
  final class Scratch {
    let available: UnsafeMutableBufferPointer<Int>

    init(count: Int) {
      available = .allocate(capacity: max(1, count))
      available.initialize(repeating: 0)
    }

    deinit {
      available.deallocate()
    }
  }
}
