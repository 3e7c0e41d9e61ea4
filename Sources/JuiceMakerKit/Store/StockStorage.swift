/// Where a `FruitStore` keeps its stock levels: in memory, or durably.
///
/// A storage holds one level per fruit, in the order of `fruits`. Each call to
/// `perform(_:_:)` is one atomic operation: no other operation, in this process or
/// another sharing the storage, interleaves with it. `FruitStore` builds every
/// public operation on this one requirement, so the same `JuiceMaker` code runs
/// over any storage.
public protocol StockStorage: Sendable {
  /// The fruits the storage holds levels for, in level order.
  var fruits: [Fruit.ID] { get }

  /// Reads every level.
  ///
  /// - Returns: One level per fruit, in the order of `fruits`.
  /// - Throws: `StockStorageError` when the storage cannot be read.
  func levels() throws(StockStorageError) -> [Int]

  /// Runs one operation atomically.
  ///
  /// The storage reads the current levels, lets `body` change them, and keeps the
  /// changed levels together with a record of the operation and its outcome, all or
  /// nothing.
  ///
  /// - Parameters:
  ///   - operation: What the operation is, for the storage's journal.
  ///   - body: Changes the levels and returns its result and outcome; it runs once
  ///     and must not block or call back into the storage.
  /// - Returns: What `body` returned.
  /// - Throws: `StockStorageError` when the change could not be kept; then no level
  ///   changed.
  func perform<Result>(
    _ operation: StockOperation,
    _ body: (inout [Int]) -> (Result, StockOutcome)
  ) throws(StockStorageError) -> Result
}
