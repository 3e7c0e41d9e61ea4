public import JuiceMakerCatalog

/// Why a `FruitStore` did not do what was asked. Nothing changes when one is thrown.
///
/// The cases fall in three groups: caller mistakes (`.unknownFruit`,
/// `.negativeQuantity`, `.overflow`), stock refusals (`.insufficientStock`,
/// `.stockChanged`), and storage failures (`.storage`).
public enum FruitStoreError: Error, Hashable, Sendable {
  /// The store holds no fruit with this id.
  case unknownFruit(Fruit.ID)
  /// A quantity was negative.
  case negativeQuantity(Int, fruit: Fruit.ID)
  /// Adding `amount` to `stock` would overflow `Int`.
  case overflow(fruit: Fruit.ID, stock: Int, amount: Int)
  /// Removing more than the store holds; stock never goes below zero.
  case insufficientStock(Shortage)
  /// A compare-and-set found the level at `actual`, not the `expected` one.
  case stockChanged(fruit: Fruit.ID, expected: Int, actual: Int)
  /// The request id was first used for another operation, `firstUse`; nothing
  /// changed. The same operation sent again under its id gets its first outcome back.
  case requestIDReused(RequestID, firstUse: StockOperation)
  /// The storage failed.
  case storage(StockStorageError)
}

// MARK: - CustomStringConvertible

extension FruitStoreError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .unknownFruit(let fruit):
      "unknown fruit \"\(fruit)\""
    case .negativeQuantity(let quantity, let fruit):
      "quantity \(quantity) for \(fruit) is negative"
    case .overflow(let fruit, let stock, let amount):
      "adding \(amount) to \(fruit) (stock \(stock)) would overflow"
    case .insufficientStock(let shortage):
      "cannot remove \(shortage.needed) \(shortage.fruit): only \(shortage.available) in stock"
    case .stockChanged(let fruit, let expected, let actual):
      "the stock of \(fruit) is \(actual), not \(expected) as expected"
    case .requestIDReused(let id, let firstUse):
      "request id \(id) was first used for \(firstUse.action) by \(firstUse.editor)"
    case .storage(let error):
      error.description
    }
  }
}
