import Foundation

/// Baseline: the obvious thread-safe store, a `String`-keyed dictionary under `NSLock`.
///
/// An order looks its recipe up by juice name, then, under the lock, checks every fruit
/// and withdraws them all or none, looking each fruit up by name: the same all-or-nothing
/// check-and-withdraw `JuiceMaker.make` does over resolved indices.
///
/// `@unchecked Sendable` because `stock` is read and written only between `lock()` and
/// `unlock()`; this is the shape `FruitStore` is measured against, not one to copy.
final class DictionaryStore: @unchecked Sendable {
  private let lock = NSLock()
  private var stock: [String: Int]
  private let recipes: [String: [(fruit: String, count: Int)]]

  init(stock: [String: Int], recipes: [String: [(fruit: String, count: Int)]]) {
    self.stock = stock
    self.recipes = recipes
  }

  /// Makes one juice; `false` when the juice is unknown or a fruit is short.
  func make(_ juice: String) -> Bool {
    guard let recipe = recipes[juice] else { return false }
    lock.lock()
    defer { lock.unlock() }
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
    lock.lock()
    defer { lock.unlock() }
    return stock
  }
}
