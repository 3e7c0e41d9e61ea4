/// Why a `FruitStore` refused a stock edit. Nothing changes when one is thrown.
public enum FruitStoreError: Error, Hashable, Sendable {
  /// The store holds no fruit with this id.
  case unknownFruit(Fruit.ID)
  /// A quantity was negative.
  case negativeQuantity(Int, fruit: Fruit.ID)
  /// Adding `amount` to `stock` would overflow `Int`.
  case overflow(fruit: Fruit.ID, stock: Int, amount: Int)
  /// Removing more than the store holds; stock never goes below zero.
  case insufficientStock(Shortage)
  /// The persistent storage failed.
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
    case .storage(let error):
      error.description
    }
  }
}
