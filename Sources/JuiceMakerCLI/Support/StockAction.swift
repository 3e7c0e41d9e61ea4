import JuiceMakerKit

/// An edit of one fruit's stock: what `stock add|remove|set` and the shop's stock screen do.
enum StockAction: String, Sendable, CaseIterable {
  /// Adds N (1 or more).
  case add
  /// Removes N (1 or more); refused when fewer are in stock.
  case remove
  /// Sets the stock to N (0 or more).
  case set

  /// What N must be.
  var rule: Quantity.Rule { self == .set ? .nonNegative : .positive }

  /// Applies the edit.
  ///
  /// - Parameters:
  ///   - quantity: N.
  ///   - fruit: The fruit.
  ///   - store: The store.
  ///   - editor: The shop or editor the journal names.
  /// - Returns: The new level.
  /// - Throws: `CLIError` for an unknown fruit, a negative N, an overflow, a removal of more
  ///   than is in stock, or a store that fails.
  func apply(_ quantity: Int, of fruit: Fruit.ID, in store: FruitStore, by editor: String)
    throws(CLIError) -> Int
  {
    do throws(FruitStoreError) {
      switch self {
      case .add: return try store.add(quantity, of: fruit, by: editor)
      case .remove: return try store.remove(quantity, of: fruit, by: editor)
      case .set:
        try store.setStock(quantity, of: fruit, by: editor)
        return quantity
      }
    } catch {
      switch error {
      case .unknownFruit(let fruit): throw .unknownFruit(fruit.rawValue)
      case .negativeQuantity(let value, _): throw .negative(value: String(value), option: "N")
      case .overflow(let fruit, let stock, let amount):
        throw .overflow(fruit: fruit, stock: stock, amount: amount)
      case .insufficientStock(let shortage): throw .notEnoughStock(shortage)
      case .storage(let storageError): throw CLIError(storageError)
      }
    }
  }
}
