import JuiceMakerCatalog

/// Every recipe of a catalog resolved to a store's level indices, laid out flat.
///
/// Built once per `JuiceMaker` from the catalog and the store's public `fruits`, so
/// an order reads a few integers instead of hashing fruit ids. Everything an order
/// reads lives in buffers the table owns, so the order path (a shop's, and the rush's)
/// copies and retains no reference-counted value.
@usableFromInline
final class RecipeTable: Sendable {
  /// Where each juice's ingredients start in `needs`; one extra entry marks the end.
  @usableFromInline nonisolated(unsafe) let starts: UnsafeMutableBufferPointer<Int>
  /// Each ingredient's level index and amount per juice, juice after juice.
  @usableFromInline nonisolated(unsafe) let needs: UnsafeMutableBufferPointer<StockNeed>
  /// The fruit of each ingredient, for reporting shortages.
  let fruits: [Fruit.ID]
  /// Whether the store holds every fruit of each juice; a juice that lacks one is
  /// always refused, on the journaled path.
  @usableFromInline nonisolated(unsafe) let complete: UnsafeMutableBufferPointer<Bool>
  /// The largest count of each juice that does not overflow `Int`.
  @usableFromInline nonisolated(unsafe) let maximumCounts: UnsafeMutableBufferPointer<Int>
  /// The first need, as a pointer, for slicing without generic index arithmetic.
  @usableFromInline nonisolated(unsafe) let base: UnsafeMutablePointer<StockNeed>
  /// The serial number of the catalog the table was built from.
  @usableFromInline let catalogSerial: Int

  init(catalog: Catalog, store: FruitStore) {
    var starts = [0]
    var needs: [StockNeed] = []
    var fruits: [Fruit.ID] = []
    var complete: [Bool] = []
    var maximumCounts: [Int] = []
    let ingredientCount = catalog.juices.reduce(0) { $0 + $1.ingredients.count }
    starts.reserveCapacity(catalog.juices.count + 1)
    needs.reserveCapacity(ingredientCount)
    fruits.reserveCapacity(ingredientCount)
    complete.reserveCapacity(catalog.juices.count)
    maximumCounts.reserveCapacity(catalog.juices.count)
    for juice in catalog.juices {
      var largest = 1
      var held = true
      for ingredient in juice.ingredients {
        let index = store.index(of: ingredient.fruit)
        held = held && index != nil
        needs.append(StockNeed(index: index ?? -1, amount: ingredient.count))
        fruits.append(ingredient.fruit)
        largest = max(largest, ingredient.count)
      }
      starts.append(needs.count)
      complete.append(held)
      maximumCounts.append(Int.max / largest)
    }
    self.starts = Self.buffer(starts)
    let base = UnsafeMutablePointer<StockNeed>.allocate(capacity: max(1, needs.count))
    base.initialize(from: needs, count: needs.count)
    self.base = base
    self.needs = UnsafeMutableBufferPointer(start: base, count: max(1, needs.count))
    self.fruits = fruits
    self.complete = Self.buffer(complete)
    self.maximumCounts = Self.buffer(maximumCounts)
    self.catalogSerial = catalog.serial
  }

  deinit {
    needs.deallocate()
    starts.deallocate()
    complete.deallocate()
    maximumCounts.deallocate()
  }

  /// A buffer holding a copy of `elements`, allocated for at least one element.
  private static func buffer<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<
    Element
  > {
    let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(1, elements.count))
    _ = buffer.initialize(from: elements)
    return UnsafeMutableBufferPointer(rebasing: buffer[..<elements.count])
  }

  /// The needs of one juice.
  @inlinable
  func recipe(_ juice: Int) -> UnsafeBufferPointer<StockNeed> {
    let start = starts[juice]
    return UnsafeBufferPointer(start: base + start, count: starts[juice + 1] &- start)
  }

  /// The level indices a juice's order touches, ascending.
  func touching(_ juice: Int) -> [Int] {
    recipe(juice).map(\.index).filter { $0 >= 0 }.sorted()
  }

  /// The fruit of each ingredient of one juice, in recipe order.
  func fruits(_ juice: Int) -> ArraySlice<Fruit.ID> {
    fruits[starts[juice]..<starts[juice + 1]]
  }

  /// Every short fruit of a recipe, in recipe order, by the ledger's rule.
  ///
  /// - Parameter available: Each ingredient's level, in recipe order.
  func shortages(_ juice: Int, count: Int, available: UnsafeMutableBufferPointer<Int>)
    -> [Shortage]
  {
    StockLedger.shortages(recipe(juice), count: count, fruits: fruits(juice)) { available[$0] }
  }

  /// Withdraws `count` juices' worth of fruit from the levels, or nothing when any
  /// fruit is short: the journaled path's body, the ledger's order rule.
  ///
  /// - Returns: `.done`, or `.refused` with every shortage in recipe order.
  func withdraw(_ juice: Int, count: Int, from levels: inout StockLevels) -> StockOutcome {
    StockLedger.order(recipe(juice), count: count, fruits: fruits(juice), from: &levels)
  }

  /// How many of a juice the levels allow at once, by the ledger's rule.
  func makeableCount(_ juice: Int, levels: [Int]) -> Int {
    StockLedger.makeableCount(recipe(juice)) { levels[$0] }
  }
}
