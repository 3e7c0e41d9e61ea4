/// Stock levels held in memory, guarded by a lock; what `FruitStore(catalog:)` uses.
///
/// It keeps no journal: the operation passed to `perform(_:_:)` is not recorded.
public final class InMemoryStockStorage: StockStorage {
  public let fruits: [Fruit.ID]
  let state: SpinLocked<[Int]>

  /// Creates storage with the given levels.
  ///
  /// - Parameters:
  ///   - fruits: The fruits, in level order.
  ///   - levels: One level per fruit.
  init(fruits: [Fruit.ID], levels: [Int]) {
    self.fruits = fruits
    self.state = SpinLocked(levels)
  }

  public func levels() -> [Int] {
    state.withLock { $0 }
  }

  public func perform<Result>(
    _ operation: StockOperation,
    _ body: (inout [Int]) -> (Result, StockOutcome)
  ) -> Result {
    state.withLock { levels in body(&levels).0 }
  }
}
