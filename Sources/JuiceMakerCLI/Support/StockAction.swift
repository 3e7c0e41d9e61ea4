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
  ///   - expected: For `set`, the level the stock must have, else the edit is refused.
  /// - Returns: The level before and after.
  /// - Throws: `CLIError` for an unknown fruit, a negative N, an overflow, a removal of more
  ///   than is in stock, or a store that fails.
  func apply(
    _ quantity: Int, of fruit: Fruit.ID, in store: FruitStore, by editor: String,
    expecting expected: Int? = nil
  ) throws(CLIError) -> StockChange.Level {
    do throws(FruitStoreError) {
      switch self {
      case .add:
        let after = try store.add(quantity, of: fruit, by: editor)
        return StockChange.Level(fruit: fruit, before: after - quantity, after: after)
      case .remove:
        let after = try store.remove(quantity, of: fruit, by: editor)
        return StockChange.Level(fruit: fruit, before: after + quantity, after: after)
      case .set:
        return try store.setStock(quantity, of: fruit, by: editor, expecting: expected)
      }
    } catch {
      throw CLIError(error)
    }
  }
}
