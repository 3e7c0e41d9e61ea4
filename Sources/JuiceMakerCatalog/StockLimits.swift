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

  /// Limits from a minimum and a par either of which may be left out: a pack's `min` and
  /// `par`, or `stock limits --min N --par M` over the limits a fruit has.
  ///
  /// A missing minimum is the current one, else 0; a missing par is the current one,
  /// else the fruit's initial stock, raised to the minimum when below it.
  ///
  /// - Parameters:
  ///   - minimum: The minimum given, if any.
  ///   - par: The par given, if any.
  ///   - current: The limits the fruit has now, if any.
  ///   - initialStock: The fruit's initial stock.
  /// - Returns: The limits; `nil` when neither is given and there are none now, or when a
  ///   par given is below the minimum.
  public static func resolving(
    minimum: Int?, par: Int?, current: StockLimits? = nil, initialStock: Int
  ) -> StockLimits? {
    guard minimum != nil || par != nil || current != nil else { return nil }
    let low = minimum ?? current?.minimum ?? 0
    let full = par ?? max(current?.par ?? initialStock, low)
    guard low >= 0, full >= low else { return nil }
    return StockLimits(minimum: low, par: full)
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
