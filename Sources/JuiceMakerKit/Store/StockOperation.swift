/// What a stock operation is, as a journal records it and observers see it.
public struct StockOperation: Hashable, Sendable {
  /// The kinds of operation.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// A shop made juice.
    case order
    /// Fruit was added.
    case add
    /// Fruit was removed.
    case remove
    /// A fruit's stock was set to a level.
    case set
  }

  /// The kind of operation.
  public let kind: Kind
  /// The shop that performed it (`JuiceMaker.name`), or the store's editor.
  public let shop: String
  /// The juice ordered, or the fruit edited.
  public let subject: String
  /// How many juices, or how many fruits (the new level, for `set`).
  public let count: Int

  /// Creates an operation description.
  public init(kind: Kind, shop: String, subject: String, count: Int) {
    self.kind = kind
    self.shop = shop
    self.subject = subject
    self.count = count
  }
}

/// How an operation ended, as a journal records it.
public enum StockOutcome: Hashable, Sendable {
  /// The stock changed as asked (or was already as asked).
  case done
  /// The operation was refused because some fruit was short; nothing changed.
  case refused
  /// The operation was invalid, such as a sum that would overflow; nothing changed and
  /// nothing is kept, not even a journal entry.
  case rejected
}
