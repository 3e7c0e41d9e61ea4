public import JuiceMakerCatalog

/// What a stock edit does to one fruit's level.
public enum StockEdit: Hashable, Sendable {
  /// Adds `count`.
  case add(Int)
  /// Removes `count`; refused when fewer are in stock.
  case remove(Int)
  /// Sets the level; when `expected` is not `nil`, only if the level is `expected` now
  /// (compare-and-set).
  case set(Int, expected: Int?)

  /// The operation's action for `fruit`.
  public func action(of fruit: Fruit.ID) -> StockOperation.Action {
    switch self {
    case .add(let count): .add(fruit, count: count)
    case .remove(let count): .remove(fruit, count: count)
    case .set(let level, let expected): .set(fruit, level: level, expected: expected)
    }
  }
}
