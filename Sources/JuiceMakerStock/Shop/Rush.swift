import FoundationEssentials
package import JuiceMakerCatalog
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
    /// How many refusals each fruit was short in, by store level.
    package var short: [Int]
    /// What broke the conservation law, or `nil` when it held.
    package var broken: String?
  }

  /// What one shop did, for the conservation check.
  package struct ShopResult: Sendable {
    package var tally = Tally()
    package var juices: [Tally]
    package var withdrawn: [Int]
    package var restocked: [Int]
    /// How many refusals each fruit was short in, by store level.
    package var short: [Int]
    /// The first order or restock that failed for another reason than stock; the
    /// shop stops there.
    package var failure: JuiceMakerError?
  }

  package let catalog: Catalog
  package let store: FruitStore
  package let shops: Int
  package let orders: Int
  package let seed: UInt64
  /// Every this many orders a shop restocks one fruit, unless told otherwise.
  package static let restockInterval = 10
  /// Every this many orders a shop restocks one fruit; 0 never restocks.
  package let restockEvery: Int

  /// Creates a rush.
  ///
  /// - Parameters:
  ///   - catalog: The menu every shop uses.
  ///   - store: The store the shops share.
  ///   - shops: How many shops.
  ///   - orders: How many orders each shop places.
  ///   - seed: The seed of the shops' random choices.
  ///   - restockEvery: Every this many orders a shop restocks one fruit; 0 never
  ///     restocks.
  package init(
    catalog: Catalog, store: FruitStore, shops: Int, orders: Int, seed: UInt64,
    restockEvery: Int = Rush.restockInterval
  ) {
    self.restockEvery = max(0, restockEvery)
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
          let run: @Sendable () -> Void = {
            let result = shop(index)
            let all: [ShopResult]? = collected.withLock { collected in
              collected.results[index] = result
              collected.running -= 1
              return collected.running == 0 ? collected.results.compactMap { $0 } : nil
            }
            if let all { finished.resume(returning: all) }
          }
          // A shop the system has no thread left for runs on this one, after the others.
          if !Threads.detach(run) { run() }
        }
      }
    case .tasks:
      results = await withTaskGroup(of: (Int, ShopResult).self) { group in
        for index in 0..<shops {
          group.addTask { (index, shop(index)) }
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
    var short = [Int](repeating: 0, count: store.fruits.count)
    for result in results {
      for (index, count) in result.short.enumerated() { short[index] &+= count }
    }
    return Report(
      shops: results.map(\.tally), juices: juices, seconds: seconds,
      failure: results.lazy.compactMap(\.failure).first, final: final, short: short,
      broken: broken.isEmpty ? nil : broken.joined(separator: "; "))
  }

  /// Runs one shop's orders to the end, or to its first failure: the body of a
  /// thread or task. A synchronous function, so its state lives on the thread's
  /// stack.
  @inline(never)
  func shop(_ index: Int) -> ShopResult {
    var state = ShopState(rush: self, index: index)
    for _ in 0..<orders where !state.stopped { state.step() }
    return state.result
  }

  /// One shop's state during a rush: its random numbers, and its tables and tallies,
  /// kept by index in memory the shop owns, so a step hashes nothing, allocates
  /// nothing and retains nothing.
  package struct ShopState {
    let tables: Tables
    /// Every this many orders the shop restocks; `Int.max` for never.
    let restockEvery: Int
    /// Orders until the next restock.
    var untilRestock: Int
    /// The first failure other than a refusal for stock.
    var failure: JuiceMakerError?
    /// Whether the shop stopped on a failure other than a refusal for stock.
    package var stopped = false
    package var random: SplitMix64

    package init(rush: Rush, index: Int) {
      tables = Tables(
        shop: JuiceMaker(name: "shop-\(index + 1)", catalog: rush.catalog, store: rush.store))
      random = SplitMix64(seed: rush.seed &+ UInt64(index) &* 0x9E37_79B9)
      restockEvery = rush.restockEvery == 0 ? Int.max : rush.restockEvery
      untilRestock = restockEvery
    }

    /// What the shop did so far.
    package var result: ShopResult {
      let tables = self.tables
      var juices: [Tally] = []
      var withdrawn = [Int](repeating: 0, count: tables.levelCount)
      var tally = Tally()
      for juice in 0..<tables.juiceCount {
        let made = tables.made[juice]
        juices.append(Tally(made: made, refused: tables.refused[juice]))
        tally.made += made
        tally.refused += tables.refused[juice]
        // A juice with a fruit the store does not hold is never made.
        for need in tables.recipes.recipe(juice) where need.index >= 0 {
          withdrawn[need.index] &+= need.amount &* made
        }
      }
      return ShopResult(
        tally: tally, juices: juices, withdrawn: withdrawn,
        restocked: Array(tables.restocked), short: Array(tables.short), failure: failure)
    }

    /// Places one order, restocking one fruit first every `restockEvery` steps.
    @inline(__always)
    package mutating func step() {
      untilRestock &-= 1
      if untilRestock == 0 {
        untilRestock = restockEvery
        if let failure = tables.restock(random.next()) { stop(failure) }
      }
      guard tables.pickCount > 0 else { return }
      if let failure = tables.order(random.next()) { stop(failure) }
    }

    mutating func stop(_ error: JuiceMakerError) {
      failure = error
      stopped = true
    }
  }

  /// What one shop reads and counts on every step, laid out flat by index in memory
  /// the shop owns.
  ///
  /// The step's work lives in this class's methods, where the class and its fields
  /// are borrowed: a step retains and releases nothing.
  final class Tables {
    /// The shop, of the rush's catalog and store.
    let shop: JuiceMaker
    /// The juice of each pick, when the menu's total weight is small enough for a
    /// table; else empty, and `cumulative` is searched.
    let picks: UnsafeMutableBufferPointer<Int32>
    /// The running total of the juices' weights.
    let cumulative: UnsafeMutableBufferPointer<Int>
    /// The menu's total weight: how many picks there are.
    let pickCount: Int
    /// Each juice's recipe as level indices: the shop's own table.
    let recipes: RecipeTable
    /// The store level index of each catalog fruit, or -1.
    let fruitIndices: UnsafeMutableBufferPointer<Int>
    /// Juices made and refused, by juice.
    let made: UnsafeMutableBufferPointer<Int>
    let refused: UnsafeMutableBufferPointer<Int>
    /// Fruit restocked, and refusals each fruit was short in, by store level.
    let restocked: UnsafeMutableBufferPointer<Int>
    let short: UnsafeMutableBufferPointer<Int>
    /// Where a refused order's levels land, one per ingredient of the longest recipe.
    let available: UnsafeMutablePointer<Int>
    let juiceCount: Int
    let fruitCount: Int
    let levelCount: Int
    /// The largest total weight picked from a table.
    static let largestTable = 4096

    init(shop: JuiceMaker) {
      self.shop = shop
      let catalog = shop.catalog
      let store = shop.store
      // Juices that take fewer fruits are ordered more often, as on a real menu.
      // Counts are capped before adding, so a pack's huge counts cannot overflow.
      let weights = catalog.juices.map { juice in
        max(1, 32 / max(1, juice.ingredients.reduce(0) { $0 + min($1.count, 32) }))
      }
      var cumulative: [Int] = []
      var total = 0
      for weight in weights {
        total += weight
        cumulative.append(total)
      }
      pickCount = total
      var picks: [Int32] = []
      if total <= Self.largestTable {
        for (juice, weight) in weights.enumerated() {
          picks.append(contentsOf: repeatElement(Int32(juice), count: weight))
        }
      }
      let longest = catalog.juices.reduce(1) { max($0, $1.ingredients.count) }
      recipes = shop.recipes
      juiceCount = catalog.juices.count
      fruitCount = catalog.fruits.count
      levelCount = store.fruits.count
      self.picks = Self.buffer(picks)
      self.cumulative = Self.buffer(cumulative)
      fruitIndices = Self.buffer(catalog.fruits.map { store.index(of: $0.id) ?? -1 })
      made = Self.buffer([Int](repeating: 0, count: juiceCount))
      refused = Self.buffer([Int](repeating: 0, count: juiceCount))
      restocked = Self.buffer([Int](repeating: 0, count: levelCount))
      short = Self.buffer([Int](repeating: 0, count: levelCount))
      available = .allocate(capacity: longest)
      available.initialize(repeating: 0, count: longest)
    }

    deinit {
      picks.deallocate()
      cumulative.deallocate()
      fruitIndices.deallocate()
      made.deallocate()
      refused.deallocate()
      restocked.deallocate()
      short.deallocate()
      available.deallocate()
    }

    /// Places the order a random number picks.
    ///
    /// Over shared levels nobody watches, the order is made under the store's lock
    /// alone; on a refusal the levels land in memory the shop owns, and the short
    /// fruits are counted after the lock is released.
    ///
    /// - Returns: A failure other than a refusal for stock, which stops the shop.
    @inline(__always)
    func order(_ bits: UInt64) -> JuiceMakerError? {
      let juice = pick(bits)
      let recipe = recipes.recipe(juice)
      if recipes.complete[juice], let made = shop.store.withdrawOne(recipe, available: available) {
        // Counted without a branch on the outcome, which a random menu makes
        // unpredictable; a refusal counts each fruit below its need.
        self.made[juice] &+= made
        refused[juice] &+= 1 &- made
        let refusal = 1 &- made
        for position in 0..<recipe.count {
          let need = recipe[position]
          let isShort = StockLedger.margin(of: available[position], for: need, count: 1) < 0
          short[need.index] &+= isShort ? refusal : 0
        }
        return nil
      }
      return orderThroughShop(juice)
    }

    /// An order through the shop's public path: a store without shared levels, one
    /// being watched, or a juice with a fruit the store does not hold.
    ///
    /// - Returns: A failure other than a refusal for stock.
    @inline(never)
    func orderThroughShop(_ juice: Int) -> JuiceMakerError? {
      do throws(JuiceMakerError) {
        try shop.make(shop.catalog.juices[juice])
        made[juice] &+= 1
        return nil
      } catch {
        guard case .outOfStock(let shortages) = error else { return error }
        refused[juice] &+= 1
        for shortage in shortages {
          if let index = shop.store.index(of: shortage.fruit) { short[index] &+= 1 }
        }
        return nil
      }
    }

    /// Restocks a random fruit of the catalog by 1 to 20.
    ///
    /// - Returns: A failure other than an overflow of a pack's huge stock, which
    ///   stops the shop.
    @inline(never)
    func restock(_ bits: UInt64) -> JuiceMakerError? {
      guard fruitCount > 0 else { return nil }
      let fruit = Int(((bits >> 32) &* UInt64(fruitCount)) >> 32)
      let amount = Int(((bits & 0xFFFF_FFFF) &* 20) >> 32) + 1
      do throws(JuiceMakerError) {
        let index = fruitIndices[fruit]
        if index >= 0 {
          do {
            try shop.store.restock(amount, at: index, by: shop.name)
          } catch {
            throw JuiceMakerError(error)
          }
          restocked[index] &+= amount
        } else {
          try shop.restock(amount, of: shop.catalog.fruits[fruit].id)
        }
        return nil
      } catch {
        if case .overflow = error { return nil }
        return error
      }
    }

    /// The juice a random number picks, by the menu's weights.
    @inline(__always)
    func pick(_ bits: UInt64) -> Int {
      let point = Int(((bits >> 32) &* UInt64(pickCount)) >> 32)
      if !picks.isEmpty { return Int(picks[point]) }
      var low = 0
      var high = cumulative.count - 1
      while low < high {
        let middle = (low + high) / 2
        if cumulative[middle] > point { high = middle } else { low = middle + 1 }
      }
      return low
    }

    /// A buffer holding a copy of `elements`, at least one element long.
    private static func buffer<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<
      Element
    > {
      let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(1, elements.count))
      _ = buffer.initialize(from: elements)
      return UnsafeMutableBufferPointer(rebasing: buffer[..<elements.count])
    }
  }
}
