/// Baseline: the same store as an actor, its isolation standing in for the lock.
actor ActorStore {
  private var stock: [String: Int]
  private let recipes: [String: [(fruit: String, count: Int)]]

  init(stock: [String: Int], recipes: [String: [(fruit: String, count: Int)]]) {
    self.stock = stock
    self.recipes = recipes
  }

  /// Makes one juice; `false` when the juice is unknown or a fruit is short.
  func make(_ juice: String) -> Bool {
    guard let recipe = recipes[juice] else { return false }
    for ingredient in recipe where stock[ingredient.fruit, default: 0] < ingredient.count {
      return false
    }
    for ingredient in recipe {
      stock[ingredient.fruit, default: 0] -= ingredient.count
    }
    return true
  }

  /// Every fruit's stock.
  func snapshot() -> [String: Int] {
    stock
  }
}
