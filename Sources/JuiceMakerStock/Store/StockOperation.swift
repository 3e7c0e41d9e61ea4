public import JuiceMakerCatalog

/// One stock operation, as a storage journals it and observers see it.
///
/// ```swift
/// let order = StockOperation(editor: "downtown", action: .order("banana-juice", count: 2))
/// print(order.action.juice ?? "none", order.id.rawValue.count)
/// // banana-juice 36
/// ```
public struct StockOperation: Hashable, Sendable {
  /// What an operation does.
  public enum Action: Hashable, Sendable {
    /// A shop makes `count` of a juice, withdrawing its recipe's fruit all at once.
    case order(Juice.ID, count: Int)
    /// `count` of a fruit are added.
    case add(Fruit.ID, count: Int)
    /// `count` of a fruit are removed; refused when fewer are in stock.
    case remove(Fruit.ID, count: Int)
    /// A fruit's level is set; when `expected` is not `nil`, only if the level is
    /// `expected` now (compare-and-set), else the outcome is `.conflict`.
    case set(Fruit.ID, level: Int, expected: Int?)
    /// A fruit's minimum and par levels are set for this store, over its pack's; no
    /// level changes.
    case limits(Fruit.ID, StockLimits)
  }

  /// The idempotency id; unique per operation.
  public let id: RequestID
  /// Who made the operation: the shop (`JuiceMaker.name`) or the store's editor.
  public let editor: String
  /// What the operation does.
  public let action: Action
  /// The price of one juice of an order, as the menu had it when the order was made;
  /// `nil` for a juice without a price and for stock edits. The journal keeps it, so
  /// takings stay right after the menu's prices change.
  public let price: Money?

  /// Creates an operation.
  ///
  /// - Parameters:
  ///   - id: The idempotency id; a new random one by default.
  ///   - editor: The shop or editor making the operation.
  ///   - action: What it does.
  ///   - price: The price of one juice of an order; `nil` for none.
  public init(id: RequestID = .random(), editor: String, action: Action, price: Money? = nil) {
    self.id = id
    self.editor = editor
    self.action = action
    self.price = price
  }
}

// MARK: - Parts of an action

extension StockOperation.Action {
  /// The juice of an order; `nil` for a stock edit.
  public var juice: Juice.ID? {
    if case .order(let juice, _) = self { return juice }
    return nil
  }

  /// The fruit of a stock edit; `nil` for an order.
  public var fruit: Fruit.ID? {
    switch self {
    case .order: nil
    case .add(let fruit, _), .remove(let fruit, _), .set(let fruit, _, _), .limits(let fruit, _):
      fruit
    }
  }

  /// The action's name as journals write it: `order`, `add`, `remove`, `set` or `limits`.
  public var name: String {
    switch self {
    case .order: "order"
    case .add: "add"
    case .remove: "remove"
    case .set: "set"
    case .limits: "limits"
    }
  }

  /// How many juices (order), fruits (add, remove), the new level (set), or the
  /// minimum (limits).
  public var count: Int {
    switch self {
    case .order(_, let count), .add(_, let count), .remove(_, let count): count
    case .set(_, let level, _): level
    case .limits(_, let limits): limits.minimum
    }
  }
}
