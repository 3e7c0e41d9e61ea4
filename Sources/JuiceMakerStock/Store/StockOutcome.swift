public import JuiceMakerCatalog

/// How a stock operation ended, as a storage journals it and a replay returns it.
public enum StockOutcome: Hashable, Sendable {
  /// The stock changed as asked (or was already as asked).
  case done
  /// Some fruit was short (an order, or a removal below zero): every shortage, in
  /// recipe order. Nothing changed.
  case refused([Shortage])
  /// A compare-and-set found `actual` where the caller expected `expected`. Nothing
  /// changed.
  case conflict(fruit: Fruit.ID, expected: Int, actual: Int)
}

// MARK: - Name

extension StockOutcome {
  /// The outcome's name as journals write it: `done`, `refused` or `conflict`.
  public var name: String {
    switch self {
    case .done: "done"
    case .refused: "refused"
    case .conflict: "conflict"
    }
  }
}
