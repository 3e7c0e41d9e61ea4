/// One ingredient as the ledger reads it: which level, and how much of it one juice
/// takes.
@usableFromInline
package struct StockNeed: Hashable, Sendable, BitwiseCopyable {
  /// The level index in the storage's `fruits`; below 0 for a fruit the store does not
  /// hold.
  @usableFromInline package var index: Int
  /// How many of the fruit one juice takes; positive.
  @usableFromInline package var amount: Int

  /// Creates a need.
  @usableFromInline package init(index: Int, amount: Int) {
    self.index = index
    self.amount = amount
  }
}
