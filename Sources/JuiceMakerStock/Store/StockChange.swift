public import JuiceMakerCatalog

/// One operation's effect on the stock, as observers receive it.
///
/// An observer receives one `StockChange` for every operation that changed at
/// least one level, exactly once, after the store has released its lock.
public struct StockChange: Hashable, Sendable {
  /// One fruit's level before and after the operation.
  public struct Level: Hashable, Sendable {
    /// The fruit.
    public let fruit: Fruit.ID
    /// The level before the operation.
    public let before: Int
    /// The level after the operation.
    public let after: Int

    /// Creates a level change.
    public init(fruit: Fruit.ID, before: Int, after: Int) {
      self.fruit = fruit
      self.before = before
      self.after = after
    }
  }

  /// The operation that made the change.
  public let operation: StockOperation
  /// The levels that changed, in the order of `FruitStore.fruits`.
  public let levels: [Level]

  /// Creates a change.
  public init(operation: StockOperation, levels: [Level]) {
    self.operation = operation
    self.levels = levels
  }
}
