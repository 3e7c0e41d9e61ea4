/// Every recipe of a catalog resolved to a store's level indices, laid out flat.
///
/// Built once per `JuiceMaker`, so an order reads a few integers instead of hashing
/// fruit ids.
@usableFromInline
final class RecipeTable: Sendable {
  /// Where each juice's ingredients start in `slots` and `counts`; one extra entry
  /// marks the end.
  @usableFromInline let starts: [Int]
  /// The store level index of each ingredient, or -1 for a fruit the store lacks.
  @usableFromInline let slots: [Int]
  /// How many of the fruit one juice takes.
  @usableFromInline let counts: [Int]
  /// The fruit of each ingredient, for reporting shortages.
  private let fruits: [Fruit.ID]
  /// The largest count of each juice that does not overflow `Int`.
  @usableFromInline let maximumCounts: [Int]
  /// The serial number of the catalog the table was built from.
  @usableFromInline let catalogSerial: Int
  /// The store's levels when it keeps them in memory; this reference keeps them alive.
  private let memory: SpinLocked<[Int]>?
  /// The same levels, reached on the order path without reference counting (an
  /// atomic retain and release per order otherwise cost more than the order itself).
  @usableFromInline let unretainedMemory: Unmanaged<SpinLocked<[Int]>>?
  /// The store's observers.
  @usableFromInline let observers: ObserverRegistry

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
    self.catalogSerial = catalog.serial
    self.memory = store.memory?.state
    self.unretainedMemory = memory.map { Unmanaged.passUnretained($0) }
    self.observers = store.observers
  }

  /// Withdraws from an in-memory store with no observers, under its lock alone.
  ///
  /// - Returns: `nil` when the store needs the general path (persistent storage or
  ///   observers); `.some(nil)` when the fruit was withdrawn; `.some(shortages)` when
  ///   it was refused.
  @inlinable
  func withdrawInMemory(_ juice: Int, count: Int) -> [Shortage]?? {
    guard let unretainedMemory, !observers.isActive else { return nil }
    return unretainedMemory._withUnsafeGuaranteedRef { memory in
      memory.withLock { levels in withdraw(juice, count: count, from: &levels) }
    }
  }

  /// Withdraws `count` juices' worth of fruit, or nothing when any fruit is short.
  ///
  /// - Precondition: `1 <= count <= maximumCounts[juice]`.
  /// - Returns: `nil` when the fruit was withdrawn, else every shortage in recipe
  ///   order.
  @inlinable
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
  @usableFromInline @inline(never)
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
