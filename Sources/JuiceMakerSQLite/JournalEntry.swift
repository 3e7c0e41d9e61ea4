public import Foundation
public import JuiceMakerKit

/// One row of a store's journal: one operation, whether it changed the stock or
/// was refused.
///
/// Every operation on a `SQLiteStockStorage` writes exactly one entry in the same
/// transaction as its level changes, so for every fruit the current level equals
/// its initial level plus the sum of its `changes` over the whole journal.
public struct JournalEntry: Hashable, Sendable {
  /// The entry's number; later entries have larger numbers.
  public let id: Int64
  /// When the operation was performed.
  public let time: Date
  /// The shop that performed it (`JuiceMaker.name`), or the store's editor.
  public let shop: String
  /// The kind of operation.
  public let kind: StockOperation.Kind
  /// The juice ordered, or the fruit edited.
  public let subject: String
  /// How many juices, or how many fruits (the new level, for `set`).
  public let count: Int
  /// Whether the operation was done or refused.
  public let outcome: StockOutcome
  /// The level change the operation applied to each fruit it changed; empty when it
  /// changed nothing.
  public let changes: [Fruit.ID: Int]

  /// Creates a journal entry.
  public init(
    id: Int64, time: Date, shop: String, kind: StockOperation.Kind, subject: String, count: Int,
    outcome: StockOutcome, changes: [Fruit.ID: Int]
  ) {
    self.id = id
    self.time = time
    self.shop = shop
    self.kind = kind
    self.subject = subject
    self.count = count
    self.outcome = outcome
    self.changes = changes
  }
}
