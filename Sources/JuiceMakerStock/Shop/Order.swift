public import JuiceMakerCatalog

/// Juice a shop made.
public struct Order: Hashable, Sendable {
  /// The juice.
  public let juice: Juice.ID
  /// How many were made at once.
  public let count: Int

  /// Creates an order.
  ///
  /// Inlinable, so that `JuiceMaker.make(_:count:requestID:)` with a `Juice`, inlined into a
  /// caller that drops the order, builds none.
  @inlinable
  public init(juice: Juice.ID, count: Int) {
    self.juice = juice
    self.count = count
  }
}
