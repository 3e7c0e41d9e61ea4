import JuiceMakerKit

/// What a person asks a shop for, from any face: an order or a stock edit.
///
/// Positions are the menu's juice and the store's fruit indices, as every face lists
/// them.
enum ShopRequest: Hashable, Sendable {
  /// Make `count` of the juice at this menu position, all or nothing.
  case order(juice: Int, count: Int)
  /// Set a fruit's level, provided it is still `seen`: the level the person saw when
  /// they chose the new one (a compare-and-set, so another shop's edit is never
  /// overwritten).
  case setStock(fruit: Int, level: Int, seen: Int)
  /// Add to a fruit's level.
  case add(fruit: Int, count: Int)
  /// Take from a fruit's level; refused when the store holds fewer.
  case remove(fruit: Int, count: Int)
}

/// How a request ended, with the message every face shows for it.
enum ShopOutcome: Hashable, Sendable {
  /// The juice was served.
  case served(String)
  /// The order was refused for want of fruit; `shortFruits` are the short fruits'
  /// positions in the store, in recipe order. The face offers to edit the stock.
  case refused(String, shortFruits: [Int])
  /// A stock edit was applied.
  case updated(String)
  /// A stock edit was refused because the level moved since the person saw it; the
  /// session's levels show it now.
  case stale(String)
  /// The request was refused for another reason (too many, an overflow).
  case rejected(String)
  /// The store does not answer now; the request is kept, under its request id, and
  /// tried again until the store answers. Its outcome comes from `ShopSession.refresh()`.
  case waiting(String)
}
