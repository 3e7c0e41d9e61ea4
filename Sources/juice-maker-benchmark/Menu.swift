import JuiceMakerKit

/// The order workload: the default menu, and two plans of orders drawn from it.
///
/// Juices are weighted as `juice-maker rush` weighs them: juices that take fewer fruits
/// are ordered more often. Every store starts with `Menu.plentiful` of each fruit, so no
/// order is ever refused: every figure counts successful orders only, each a full
/// check-and-withdraw of every fruit of its recipe.
struct Menu: Sendable {
  /// The stock of every fruit at the start; 10¹⁰ orders take less than 1% of it.
  static let plentiful = Int.max / 4

  let catalog: Catalog
  /// The juices of `catalog`, by id, for ordering by id.
  let ids: [Juice.ID]
  /// Each juice's handle, in catalog order.
  let handles: [Juice.Handle]
  /// The juices by name, as the baselines order them.
  let names: [String]
  /// Each recipe with fruits by name, for the baselines.
  let recipes: [String: [(fruit: String, count: Int)]]
  /// Runs of the same juice: a shop looks a juice up once and orders it by value, 64 times
  /// its weight in a row, through the whole menu (66 × 64 = 4,224 orders per pass).
  let resolved: Plan
  /// 4,096 orders in a fixed random order of the same weights, each juice taken from an
  /// array: every order copies a `Juice` (reference counting on its id and recipe), and
  /// no branch predictor can guess the next recipe.
  let mixed: Plan

  /// The default menu of `Recipes/`: five fruits, seven juices.
  init() {
    let fruitIDs: [Fruit.ID] = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
    let recipes: [(Juice.ID, [(Fruit.ID, Int)])] = [
      ("strawberry-juice", [("strawberry", 16)]),
      ("banana-juice", [("banana", 2)]),
      ("kiwi-juice", [("kiwi", 3)]),
      ("pineapple-juice", [("pineapple", 2)]),
      ("strawberry-banana-juice", [("strawberry", 10), ("banana", 1)]),
      ("mango-juice", [("mango", 3)]),
      ("mango-kiwi-juice", [("mango", 2), ("kiwi", 1)]),
    ]
    let juices = recipes.map { id, ingredients in
      Juice(id: id, ingredients: ingredients.map { Ingredient(fruit: $0.0, count: $0.1) })
    }
    let catalog: Catalog
    do {
      catalog = try Catalog(
        fruits: fruitIDs.map { Fruit(id: $0, initialStock: Menu.plentiful) }, juices: juices)
    } catch {
      fatalError("the benchmark menu is invalid: \(error)")
    }
    self.catalog = catalog
    ids = catalog.juices.map(\.id)
    handles = catalog.juices.compactMap(\.handle)
    names = catalog.juices.map(\.id.rawValue)
    var named: [String: [(fruit: String, count: Int)]] = [:]
    for juice in catalog.juices {
      named[juice.id.rawValue] = juice.ingredients.map { ($0.fruit.rawValue, $0.count) }
    }
    self.recipes = named

    let weights = catalog.juices.map { juice in
      max(1, 32 / max(1, juice.ingredients.reduce(0) { $0 + $1.count }))
    }
    resolved = Plan(
      runs: weights.indices.map { Plan.Run(juice: $0, count: weights[$0] * 64) }, catalog: catalog)
    let total = weights.reduce(0, +)
    var random = SplitMix64(seed: 2024)
    var picks: [Plan.Run] = []
    for _ in 0..<4096 {
      var pick = Int(random.next() % UInt64(total))
      var index = 0
      while pick >= weights[index] {
        pick -= weights[index]
        index += 1
      }
      picks.append(Plan.Run(juice: index, count: 1))
    }
    mixed = Plan(runs: picks, catalog: catalog)
  }

  /// Every fruit's starting stock, by name.
  var initialStock: [String: Int] {
    Dictionary(uniqueKeysWithValues: catalog.fruits.map { ($0.id.rawValue, Menu.plentiful) })
  }
}

extension Menu {
  /// A fixed list of orders, placed in passes; a worker starts at its own run.
  struct Plan: Sendable {
    /// One juice ordered `count` times in a row.
    struct Run: Sendable {
      let juice: Int
      let count: Int
    }

    let runs: [Run]
    /// The orders of one pass.
    let ordersPerPass: Int
    /// What one pass withdraws, per fruit name.
    let withdrawnPerPass: [String: Int]

    init(runs: [Run], catalog: Catalog) {
      self.runs = runs
      ordersPerPass = runs.reduce(0) { $0 + $1.count }
      var withdrawn: [String: Int] = [:]
      for run in runs {
        for ingredient in catalog.juices[run.juice].ingredients {
          withdrawn[ingredient.fruit.rawValue, default: 0] += ingredient.count * run.count
        }
      }
      withdrawnPerPass = withdrawn
    }

    /// The index of a worker's first run: workers start spread over the plan.
    func first(worker: Int) -> Int {
      (worker * (runs.count / 8 + 1)) % runs.count
    }

    /// The run a worker takes `step` runs after its first.
    func run(_ step: Int, worker: Int) -> Run {
      runs[(first(worker: worker) + step) % runs.count]
    }
  }
}
