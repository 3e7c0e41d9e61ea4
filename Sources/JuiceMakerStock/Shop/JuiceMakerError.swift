public import JuiceMakerCatalog

/// Why a `JuiceMaker` refused. Nothing is withdrawn when one is thrown.
public enum JuiceMakerError: Error, Hashable, Sendable {
  /// Some fruits are short: every short fruit of the recipe, in recipe order.
  case outOfStock([Shortage])
  /// The menu has no juice with this id.
  case unknownJuice(Juice.ID)
  /// The handle belongs to another catalog than the shop's.
  case foreignJuice(Juice.Handle)
  /// The store and the menu have no fruit with this id.
  case unknownFruit(Fruit.ID)
  /// The count is not positive, or so large that count × recipe overflows `Int`.
  case invalidCount(Int)
  /// Restocking `amount` would take the stock of `fruit` past `Int.max`.
  case overflow(fruit: Fruit.ID, stock: Int, amount: Int)
  /// A compare-and-set found the level at `actual`, not the `expected` one.
  case stockChanged(fruit: Fruit.ID, expected: Int, actual: Int)
  /// The request id was first used for another operation, `firstUse`; nothing was
  /// withdrawn. The same order sent again under its id gets its first outcome back.
  case requestIDReused(RequestID, firstUse: StockOperation)
  /// The store could not keep the change; nothing was withdrawn.
  case storage(StockStorageError)
}

// MARK: - CustomStringConvertible

extension JuiceMakerError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .outOfStock(let shortages):
      "out of stock: "
        + shortages.map {
          "\($0.fruit) short by \($0.missing) (needs \($0.needed), has \($0.available))"
        }
        .joined(separator: ", ")
    case .unknownJuice(let juice):
      "unknown juice \"\(juice)\""
    case .foreignJuice:
      "a juice handle of another catalog than the shop's"
    case .unknownFruit(let fruit):
      "unknown fruit \"\(fruit)\""
    case .invalidCount(let count):
      "invalid count \(count): it must be at least 1 and small enough not to overflow"
    case .stockChanged(let fruit, let expected, let actual):
      "the stock of \(fruit) is \(actual), not \(expected) as expected"
    case .overflow(let fruit, let stock, let amount):
      "adding \(amount) to \(fruit) (stock \(stock)) would overflow"
    case .requestIDReused(let id, let firstUse):
      "request id \(id) was first used for \(firstUse.action) by \(firstUse.editor)"
    case .storage(let error):
      error.description
    }
  }
}

// MARK: - From the store's errors

extension JuiceMakerError {
  /// The shop's error for a store's error, keeping its data.
  public init(_ error: FruitStoreError) {
    switch error {
    case .unknownFruit(let fruit): self = .unknownFruit(fruit)
    case .negativeQuantity(let count, _): self = .invalidCount(count)
    case .overflow(let fruit, let stock, let amount):
      self = .overflow(fruit: fruit, stock: stock, amount: amount)
    case .insufficientStock(let shortage): self = .outOfStock([shortage])
    case .stockChanged(let fruit, let expected, let actual):
      self = .stockChanged(fruit: fruit, expected: expected, actual: actual)
    case .requestIDReused(let id, let firstUse): self = .requestIDReused(id, firstUse: firstUse)
    case .storage(let cause): self = .storage(cause)
    }
  }
}
