import JuiceMakerKit
import Synchronization

/// Each fruit's minimum and par as the server knows them (the store's over the packs'),
/// and the fruits a change takes to or below their minimum: what `/metrics`, the stock
/// document and the event stream's `event: low` share.
///
/// Limits are read when the server starts and again whenever the stock document is
/// written anew; a `limits` entry the event stream follows updates them at once.
final class LimitsBoard: Sendable {
  private let shop: JuiceMaker
  private let limits: Mutex<[Fruit.ID: StockLimits]>

  /// Reads the limits of the shop's store.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  init(shop: JuiceMaker) throws(CLIError) {
    self.shop = shop
    limits = Mutex([:])
    try refresh()
  }

  /// Reads the limits again.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  func refresh() throws(CLIError) {
    let read: [StockLimits?]
    do {
      read = try shop.store.limits(over: shop.catalog)
    } catch {
      throw CLIError(error)
    }
    var known: [Fruit.ID: StockLimits] = [:]
    for (fruit, limits) in zip(shop.store.fruits, read) { known[fruit] = limits }
    limits.withLock { $0 = known }
  }

  /// The limits now.
  var current: [Fruit.ID: StockLimits] { limits.withLock { $0 } }

  /// Takes the limits a `limits` entry set.
  func note(_ entry: JournalEntry) {
    if case .limits(let fruit, let set) = entry.operation.action, entry.outcome == .done {
      limits.withLock { $0[fruit] = set }
    }
  }

  /// The changes that take a fruit to or below its minimum from above it, each with the
  /// fruit's limits: one per crossing (`StockLimits.crossesMinimum(from:to:)`).
  func crossings(_ changes: [StockChange.Level]) -> [(StockChange.Level, StockLimits)] {
    let limits = current
    return changes.compactMap { change in
      guard let fruitLimits = limits[change.fruit],
        fruitLimits.crossesMinimum(from: change.before, to: change.after)
      else { return nil }
      return (change, fruitLimits)
    }
  }
}
