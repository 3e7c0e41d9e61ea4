public import JuiceMakerCatalog

/// The levels an operation's body may read and change: the ones it declared it
/// touches.
///
/// A storage hands the body one `StockLevels` inside its transaction. The body reads
/// and writes levels by index (the position in the storage's `fruits`); reaching a
/// level it did not declare is a programming error and traps, so a storage that
/// locks and reads only the declared rows stays correct.
public struct StockLevels: Hashable, Sendable {
  /// The level indices the operation touches, ascending.
  public let touching: [Int]
  /// Every level; only those at `touching` are meaningful.
  public private(set) var values: [Int]

  /// Creates the view a body receives.
  ///
  /// - Parameters:
  ///   - values: One level per fruit of the storage; a storage that read only the
  ///     touched rows may leave the others 0.
  ///   - touching: The level indices the operation touches, ascending.
  public init(_ values: [Int], touching: [Int]) {
    self.values = values
    self.touching = touching
  }

  /// The level at `index`.
  ///
  /// - Precondition: `index` is one of `touching`.
  public subscript(index: Int) -> Int {
    get {
      precondition(touching.contains(index), "level \(index) is not touched by this operation")
      return values[index]
    }
    set {
      precondition(touching.contains(index), "level \(index) is not touched by this operation")
      values[index] = newValue
    }
  }

  /// The touched levels that differ from `before`, in index order.
  ///
  /// - Parameters:
  ///   - before: The levels before the body ran.
  ///   - fruits: The storage's fruits, naming each level.
  /// - Returns: One change per touched level that differs.
  public func changes(from before: StockLevels, fruits: [Fruit.ID]) -> [StockChange.Level] {
    touching.compactMap { index in
      values[index] == before.values[index]
        ? nil
        : StockChange.Level(
          fruit: fruits[index], before: before.values[index], after: values[index])
    }
  }
}
