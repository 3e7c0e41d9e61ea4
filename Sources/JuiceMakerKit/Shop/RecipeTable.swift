/// Every recipe of a catalog resolved to a store's level indices, laid out flat.
///
/// Built once per `JuiceMaker`, so an order reads a few integers instead of hashing
/// fruit ids.
final class RecipeTable: Sendable {
  /// Where each juice's ingredients start in `slots` and `counts`; one extra entry
  /// marks the end.
  private let starts: [Int]
  /// The store level index of each ingredient, or -1 for a fruit the store lacks.
  private let slots: [Int]
  /// How many of the fruit one juice takes.
  private let counts: [Int]
  /// The fruit of each ingredient, for reporting shortages.
  private let fruits: [Fruit.ID]
  /// The largest count of each juice that does not overflow `Int`.
  let maximumCounts: [Int]

  init(catalog: Catalog, store: FruitStore) {
    var starts = [0]
    var slots: [Int] = []
    var counts: [Int] = []
    var fruits: [Fruit.ID] = []
    var maximumCounts: [Int] = []
    for juice in catalog.juices {
      var largest = 1
      for ingredient in juice.ingredients {
        slots.append(store.indices[ingredient.fruit] ?? -1)
        counts.append(ingredient.count)
        fruits.append(ingredient.fruit)
        largest = max(largest, ingredient.count)
      }
      starts.append(slots.count)
      maximumCounts.append(Int.max / largest)
    }
    self.starts = starts
    self.slots = slots
    self.counts = counts
    self.fruits = fruits
    self.maximumCounts = maximumCounts
  }

  /// Withdraws `count` juices' worth of fruit, or nothing when any fruit is short.
  ///
  /// - Precondition: `1 <= count <= maximumCounts[juice]`.
  /// - Returns: `nil` when the fruit was withdrawn, else every shortage in recipe
  ///   order.
  @inline(__always)
  func withdraw(_ juice: Int, count: Int, from levels: inout [Int]) -> [Shortage]? {
    let range = starts[juice]..<starts[juice + 1]
    for ingredient in range {
      let slot = slots[ingredient]
      if slot < 0 || levels[slot] < counts[ingredient] &* count {
        return shortages(juice, count: count, levels: levels)
      }
    }
    for ingredient in range {
      levels[slots[ingredient]] &-= counts[ingredient] &* count
    }
    return nil
  }

  /// Every short fruit of a recipe, in recipe order.
  @inline(never)
  func shortages(_ juice: Int, count: Int, levels: [Int]) -> [Shortage] {
    var shortages: [Shortage] = []
    for ingredient in starts[juice]..<starts[juice + 1] {
      let slot = slots[ingredient]
      let available = slot < 0 ? 0 : levels[slot]
      let needed = counts[ingredient] &* count
      if available < needed {
        shortages.append(Shortage(fruit: fruits[ingredient], needed: needed, available: available))
      }
    }
    return shortages
  }

  /// How many of a juice the levels allow at once.
  func makeableCount(_ juice: Int, levels: [Int]) -> Int {
    var makeable = Int.max
    for ingredient in starts[juice]..<starts[juice + 1] {
      let slot = slots[ingredient]
      let available = slot < 0 ? 0 : levels[slot]
      makeable = min(makeable, available / counts[ingredient])
    }
    return makeable == Int.max ? 0 : makeable
  }
}
