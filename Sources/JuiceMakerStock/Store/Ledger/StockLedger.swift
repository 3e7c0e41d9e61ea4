package import JuiceMakerCatalog

/// The stock rules, written once: what an operation does to the levels it touches.
///
/// The ledger does no I/O and keeps no state. Given an operation and the levels it
/// touches, it says how the operation ends and what the levels become; a storage only
/// locks, reads, and commits what the ledger decided. Every path calls it: the
/// journaled path of every storage (through `StockStorage.perform(_:touching:_:)`),
/// the in-memory order path under its lock, the rush loop, and every shop screen's
/// makeable counts.
///
/// ```swift
/// var levels = StockLevels([10, 1], touching: [0, 1])
/// let recipe = [StockNeed(index: 0, amount: 2), StockNeed(index: 1, amount: 2)]
/// let outcome = StockLedger.order(recipe, count: 1, fruits: ["banana", "kiwi"], from: &levels)
/// print(outcome)
/// // refused([Shortage(fruit: "kiwi", needed: 2, available: 1)])
/// ```
@usableFromInline
package enum StockLedger {}

// MARK: - Shortages

extension StockLedger {
  /// How far a level is from covering `count` juices' worth of one ingredient: the
  /// level left after withdrawing it, negative exactly when the fruit is short.
  ///
  /// This is the shortage rule. Levels and amounts are not negative, so the
  /// difference does not overflow for a count the shop accepted, and the bitwise or
  /// of several margins is negative exactly when one of them is: a path that must not
  /// branch per fruit combines margins that way.
  ///
  /// - Parameters:
  ///   - level: The fruit's level.
  ///   - need: The ingredient: its level index and amount per juice.
  ///   - count: How many juices.
  @inlinable @inline(__always)
  package static func margin(of level: Int, for need: StockNeed, count: Int) -> Int {
    level &- need.amount &* count
  }

  /// Every short fruit of a recipe, in recipe order.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's need; an index below 0 is a fruit the store does
  ///     not hold, always short.
  ///   - count: How many juices.
  ///   - fruits: Each ingredient's fruit, in recipe order.
  ///   - level: The level of each ingredient, by its position in the recipe.
  /// - Returns: One shortage per short fruit; empty when every fruit is there.
  /// - Complexity: O(*k*) for a recipe of *k* fruits.
  package static func shortages(
    _ recipe: some Collection<StockNeed>, count: Int, fruits: some Collection<Fruit.ID>,
    level: (_ position: Int) -> Int
  ) -> [Shortage] {
    var shortages: [Shortage] = []
    for (position, (need, fruit)) in zip(recipe, fruits).enumerated() {
      let available = need.index < 0 ? 0 : level(position)
      if need.index < 0 || margin(of: available, for: need, count: count) < 0 {
        shortages.append(Shortage(fruit: fruit, needed: need.amount &* count, available: available))
      }
    }
    return shortages
  }

  /// How many juices of a recipe the levels allow at once.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's need; an index below 0 is a fruit the store does
  ///     not hold.
  ///   - level: The level at a level index.
  /// - Returns: The largest count with no shortage; 0 for an empty recipe.
  /// - Complexity: O(*k*) for a recipe of *k* fruits.
  package static func makeableCount(
    _ recipe: some Sequence<StockNeed>, level: (_ index: Int) -> Int
  ) -> Int {
    var makeable = Int.max
    for need in recipe {
      let available = need.index < 0 ? 0 : level(need.index)
      makeable = min(makeable, need.amount > 0 ? available / need.amount : Int.max)
    }
    return makeable == Int.max ? 0 : makeable
  }
}

// MARK: - Operations

extension StockLedger {
  /// Withdraws `count` juices' worth of a recipe's fruit from levels in memory, or
  /// nothing when any is short, with no branch per fruit: the order rule for a
  /// storage that keeps its levels in this process.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's need; every index is a level of `levels`.
  ///   - count: How many juices; `amount × count` must not overflow.
  ///   - levels: The levels.
  /// - Returns: Whether the fruit was withdrawn; `false` with nothing changed.
  @inlinable @inline(__always)
  package static func withdraw(
    _ recipe: UnsafeBufferPointer<StockNeed>, count: Int, from levels: UnsafeMutablePointer<Int>
  ) -> Bool {
    var short = 0
    for need in recipe {
      short |= margin(of: levels[need.index], for: need, count: count)
    }
    guard short >= 0 else { return false }
    for need in recipe {
      levels[need.index] &-= need.amount &* count
    }
    return true
  }

  /// Withdraws one juice's worth of a recipe's fruit, or nothing when any is short,
  /// copying each ingredient's level before the order into `available`, with no
  /// branch on the outcome: for a loop ordering juices picked at random, where
  /// whether an order is made cannot be predicted.
  ///
  /// - Returns: 1 when the fruit was withdrawn; 0 with nothing changed.
  @inlinable @inline(__always)
  package static func withdrawOne(
    _ recipe: UnsafeBufferPointer<StockNeed>, from levels: UnsafeMutablePointer<Int>,
    available: UnsafeMutablePointer<Int>
  ) -> Int {
    var short = 0
    for need in recipe {
      short |= margin(of: levels[need.index], for: need, count: 1)
    }
    // All ones when every fruit is there, else zero.
    let made = ~(short >> (Int.bitWidth - 1))
    for position in 0..<recipe.count {
      let need = recipe[position]
      let level = levels[need.index]
      available[position] = level
      levels[need.index] = level &- (need.amount & made)
    }
    return made & 1
  }

  /// Makes `count` juices of a recipe: withdraws every fruit at once, or refuses
  /// listing every shortage.
  ///
  /// - Parameters:
  ///   - recipe: Each ingredient's need; an index below 0 is a fruit the store does
  ///     not hold, which refuses the order.
  ///   - count: How many juices, positive; `amount × count` must not overflow.
  ///   - fruits: Each ingredient's fruit, in recipe order.
  ///   - levels: The levels the operation touches.
  /// - Returns: `.done`, or `.refused` with every shortage in recipe order.
  /// - Complexity: O(*k*) for a recipe of *k* fruits.
  package static func order(
    _ recipe: some Collection<StockNeed>, count: Int, fruits: some Collection<Fruit.ID>,
    from levels: inout StockLevels
  ) -> StockOutcome {
    let needs = Array(recipe)
    let current = levels
    let shortages = Self.shortages(needs, count: count, fruits: fruits) { position in
      current[needs[position].index]
    }
    guard shortages.isEmpty else { return .refused(shortages) }
    for need in needs {
      levels[need.index] -= need.amount * count
    }
    return .done
  }

  /// Adds to a level, unless the sum would overflow `Int`.
  ///
  /// - Returns: The new level, or `nil` when the sum would overflow.
  @inlinable @inline(__always)
  package static func adding(_ count: Int, to level: Int) -> Int? {
    let (sum, overflow) = level.addingReportingOverflow(count)
    return overflow ? nil : sum
  }

  /// Carries out a stock edit (`add`, `remove` or `set`) on the one level it touches.
  ///
  /// - An add that would overflow is refused with no shortage.
  /// - A removal of more than the level is refused with the shortage; stock never
  ///   goes below zero.
  /// - A set with an `expected` level is a compare-and-set: a level other than
  ///   `expected` is a `.conflict` naming the level found.
  ///
  /// - Parameters:
  ///   - action: The edit; its quantity is not negative. An order is refused (orders
  ///     go through `order(_:count:fruits:from:)`).
  ///   - index: The level index of the edit's fruit.
  ///   - levels: The levels the operation touches.
  /// - Returns: How the edit ended; the level changed only when `.done`.
  package static func edit(
    _ action: StockOperation.Action, at index: Int, of levels: inout StockLevels
  ) -> StockOutcome {
    let level = levels[index]
    switch action {
    case .order:
      return .refused([])
    case .add(_, let count):
      guard let sum = adding(count, to: level) else { return .refused([]) }
      levels[index] = sum
    case .remove(let fruit, let count):
      let need = StockNeed(index: index, amount: count)
      guard margin(of: level, for: need, count: 1) >= 0 else {
        return .refused([Shortage(fruit: fruit, needed: count, available: level)])
      }
      levels[index] = level - count
    case .set(let fruit, let newLevel, let expected):
      if let expected, expected != level {
        return .conflict(fruit: fruit, expected: expected, actual: level)
      }
      levels[index] = newLevel
    case .limits:
      // Limits are journaled; no level changes.
      break
    }
    return .done
  }
}

// MARK: - Replays

extension StockLedger {
  /// What an operation whose request id is journaled already gets.
  package enum Replay: Hashable, Sendable {
    /// The same operation sent again: its first outcome, with nothing done again.
    case replay(JournalEntry)
    /// Another operation under a used id: refused, with nothing done; the entry is
    /// what the id was first used for.
    case reused(JournalEntry)
  }

  /// The replay rule: a journaled request id returns its first outcome only to the
  /// same operation: the same action, whichever shop or editor sends it again (a
  /// client that lost a reply may retry through another shop or server).
  ///
  /// - Parameters:
  ///   - journaled: The entry journaled under the operation's id.
  ///   - operation: The operation sent now.
  package static func replay(_ journaled: JournalEntry, for operation: StockOperation) -> Replay {
    journaled.operation.action == operation.action ? .replay(journaled) : .reused(journaled)
  }
}
