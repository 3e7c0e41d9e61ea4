/// A fruit's minimum and par levels: the low-stock rule and the reorder rule, written
/// once.
///
/// A fruit is low at or below its minimum; a reorder brings it back up to par.
///
/// ```swift
/// let limits = StockLimits(minimum: 3, par: 10)
/// print(limits.isLow(3), limits.reorder(at: 3), limits.crossesMinimum(from: 5, to: 2))
/// // true 7 true
/// ```
public struct StockLimits: Hashable, Sendable, Codable {
  /// The level at or below which the fruit is low.
  public let minimum: Int
  /// The level a reorder brings the fruit back to; not below `minimum`.
  public let par: Int

  /// Creates limits.
  ///
  /// - Precondition: `0 <= minimum <= par`; values from outside the program are checked
  ///   first, by the pack decoder and the `stock limits` command.
  public init(minimum: Int, par: Int) {
    precondition(minimum >= 0 && par >= minimum, "limits need 0 <= minimum <= par")
    self.minimum = minimum
    self.par = par
  }

  /// Whether a level is at or below the minimum.
  public func isLow(_ level: Int) -> Bool {
    level <= minimum
  }

  /// How many to buy to bring a level back to par; 0 at or above par.
  public func reorder(at level: Int) -> Int {
    max(0, par - max(0, level))
  }

  /// Whether a change from `before` to `after` crosses the minimum downwards: the one
  /// moment a fruit becomes low, so an alert is raised once per crossing and not once
  /// per order.
  public func crossesMinimum(from before: Int, to after: Int) -> Bool {
    !isLow(before) && isLow(after)
  }
}
