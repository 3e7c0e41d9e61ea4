/// Why a `JuiceMaker` refused. Nothing is withdrawn when one is thrown.
public enum JuiceMakerError: Error, Hashable, Sendable {
  /// Some fruits are short: every short fruit of the recipe, in recipe order.
  case outOfStock([Shortage])
  /// The menu has no juice with this id.
  case unknownJuice(Juice.ID)
  /// The store and the menu have no fruit with this id.
  case unknownFruit(Fruit.ID)
  /// The count is not positive, or so large that count × recipe overflows `Int`.
  case invalidCount(Int)
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
    case .unknownFruit(let fruit):
      "unknown fruit \"\(fruit)\""
    case .invalidCount(let count):
      "invalid count \(count): it must be at least 1 and small enough not to overflow"
    case .storage(let error):
      error.description
    }
  }
}
