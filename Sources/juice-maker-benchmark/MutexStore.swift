import JuiceMakerKit
import Synchronization

/// Baseline: `FruitStore`'s own design, dense `[Int]` levels and recipes resolved to
/// level indices, but under `Synchronization.Mutex`, to show what the choice of lock
/// alone does with more OS threads than cores.
final class MutexStore: Sendable {
  private let levels: Mutex<[Int]>
  /// For each juice of the menu, its ingredients as (level index, count).
  private let recipes: [[(slot: Int, count: Int)]]

  init(menu: Menu) {
    let fruits = menu.catalog.fruits.map(\.id)
    levels = Mutex([Int](repeating: Menu.plentiful, count: fruits.count))
    recipes = menu.catalog.juices.map { juice in
      juice.ingredients.map { ingredient in
        (fruits.firstIndex(of: ingredient.fruit) ?? 0, ingredient.count)
      }
    }
  }

  /// Makes one juice of the menu by its index; `false` when a fruit is short.
  func make(_ juice: Int) -> Bool {
    let recipe = recipes[juice]
    return levels.withLock { levels in
      for ingredient in recipe where levels[ingredient.slot] < ingredient.count {
        return false
      }
      for ingredient in recipe {
        levels[ingredient.slot] -= ingredient.count
      }
      return true
    }
  }

  /// Every level, by fruit name.
  func snapshot(_ menu: Menu) -> [String: Int] {
    let levels = self.levels.withLock { $0 }
    return Dictionary(
      uniqueKeysWithValues: zip(menu.catalog.fruits.map(\.id.rawValue), levels))
  }
}
