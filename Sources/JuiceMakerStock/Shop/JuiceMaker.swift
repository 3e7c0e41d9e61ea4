public import JuiceMakerCatalog

/// A juice shop: makes juices from the menu with fruit from a shared store.
///
/// A `JuiceMaker` is a small value; make as many as there are shops, all sharing
/// one `FruitStore`. Each sees the others' withdrawals at once.
///
/// ```swift
/// let store = FruitStore(catalog: catalog)
/// let downtown = JuiceMaker(name: "downtown", catalog: catalog, store: store)
/// let airport = JuiceMaker(name: "airport", catalog: catalog, store: store)
/// try downtown.make("strawberry-banana-juice")
/// print(airport.makeableCount(of: "strawberry-banana-juice"))
/// // 0
/// ```
public struct JuiceMaker: Sendable {
  /// The shop's name, recorded in the journal of persistent storage.
  public let name: String
  /// The menu.
  public let catalog: Catalog
  /// The shared stock.
  public let store: FruitStore
  /// Everything an order touches, behind one reference so that copying or
  /// borrowing the shop costs no reference counting on the order path.
  @usableFromInline let recipes: RecipeTable

  /// Creates a shop.
  ///
  /// - Parameters:
  ///   - name: The shop's name.
  ///   - catalog: The menu; fruits the store does not hold count as 0.
  ///   - store: The stock, shared with other shops.
  /// - Complexity: O(*n*) in the number of ingredients of the whole menu.
  public init(name: String = "main", catalog: Catalog, store: FruitStore) {
    self.name = name
    self.catalog = catalog
    self.store = store
    self.recipes = RecipeTable(catalog: catalog, store: store)
  }

  // MARK: - Making juice

  /// Makes juice, withdrawing every fruit of its recipe at once.
  ///
  /// Nothing is withdrawn when any fruit is short; the error lists every shortage.
  ///
  /// - Parameters:
  ///   - juice: The juice to make.
  ///   - count: How many to make at once.
  ///   - requestID: The order's idempotency id. An order sent again with an id the
  ///     store has journaled returns the first order's result and withdraws nothing
  ///     more; `nil` makes a new order.
  /// - Returns: The order.
  /// - Throws: `JuiceMakerError.outOfStock` listing every short fruit in recipe
  ///   order; `.unknownJuice`, `.invalidCount` or `.storage` otherwise.
  /// - Complexity: O(*k*) for a recipe of *k* fruits, after one id lookup.
  @discardableResult
  public func make(_ juice: Juice.ID, count: Int = 1, requestID: RequestID? = nil)
    throws(JuiceMakerError) -> Order
  {
    guard let index = catalog.index(of: juice) else { throw .unknownJuice(juice) }
    try withdraw(index, count: count, requestID: requestID)
    return Order(juice: juice, count: count)
  }

  /// Makes juice from a juice value, skipping the id lookup for juices of this
  /// shop's catalog.
  ///
  /// - Parameters:
  ///   - juice: The juice to make, preferably taken from `catalog.juices`.
  ///   - count: How many to make at once.
  ///   - requestID: The order's idempotency id, as for `make(_:count:requestID:)`.
  /// - Returns: The order.
  /// - Throws: As `make(_:count:requestID:)` with an id.
  /// - Complexity: O(*k*) for a recipe of *k* fruits.
  @inlinable @discardableResult
  public func make(_ juice: Juice, count: Int = 1, requestID: RequestID? = nil)
    throws(JuiceMakerError) -> Order
  {
    let index: Int
    if let position = juice.position, position.catalog == recipes.catalogSerial {
      index = position.index
    } else {
      guard let found = catalog.index(of: juice) else { throw .unknownJuice(juice.id) }
      index = found
    }
    try withdraw(index, count: count, requestID: requestID)
    return Order(juice: juice.id, count: count)
  }

  /// Makes juice from a handle: the order path that looks nothing up and copies no
  /// reference.
  ///
  /// - Parameters:
  ///   - juice: The juice's handle, from this shop's catalog.
  ///   - count: How many to make at once.
  /// - Throws: As `make(_:count:requestID:)` with an id, and
  ///   `JuiceMakerError.foreignJuice` for a handle of another catalog.
  /// - Complexity: O(*k*) for a recipe of *k* fruits.
  @inlinable
  public func make(_ juice: Juice.Handle, count: Int = 1) throws(JuiceMakerError) {
    guard juice.catalog == recipes.catalogSerial else { throw .foreignJuice(juice) }
    try withdraw(juice.index, count: count, requestID: nil)
  }

  /// How a refused order's second try on the fast path ended.
  enum FastOrder {
    case made
    case refused([Shortage])
    /// The store has no shared levels, or observers must see the order.
    case storage
  }

  @inlinable
  func withdraw(_ index: Int, count: Int, requestID: RequestID?) throws(JuiceMakerError) {
    guard count > 0, count <= recipes.maximumCounts[index], requestID == nil,
      recipes.complete[index]
    else {
      return try withdrawJournaled(index, count: count, requestID: requestID)
    }
    switch store.withdraw(recipes.recipe(index), count: count, available: nil) {
    case true?: return
    case false?: try withdrawShort(index, count: count)
    case nil: try withdrawJournaled(index, count: count, requestID: nil)
    }
  }

  /// After a refusal on the fast path: tries again with room for the levels, and on
  /// a second refusal lists the shortages from the levels the store copied under its
  /// lock, once it is released.
  @usableFromInline @inline(never)
  func withdrawShort(_ index: Int, count: Int) throws(JuiceMakerError) {
    let recipe = recipes.recipe(index)
    let outcome = withUnsafeTemporaryAllocation(of: Int.self, capacity: recipe.count) {
      available -> FastOrder in
      switch store.withdraw(recipe, count: count, available: available.baseAddress) {
      case true?: .made
      case false?: .refused(recipes.shortages(index, count: count, available: available))
      case nil: .storage
      }
    }
    switch outcome {
    case .made: return
    case .refused(let shortages): throw .outOfStock(shortages)
    case .storage: try withdrawJournaled(index, count: count, requestID: nil)
    }
  }

  /// The journaled path: a storage that journals every order, a request id, observers
  /// listening, a fruit the store does not hold, a refusal, or a count out of range.
  @usableFromInline @inline(never)
  func withdrawJournaled(_ index: Int, count: Int, requestID: RequestID?)
    throws(JuiceMakerError)
  {
    let receipt = try journal(index, count: count, requestID: requestID ?? .random())
    let entry = receipt.entry
    switch (receipt.status, entry.outcome) {
    case (.idReused, _): throw .requestIDReused(entry.id, firstUse: entry.operation)
    case (_, .done): return
    case (_, .refused(let shortages)): throw .outOfStock(shortages)
    case (_, .conflict(let fruit, let expected, let actual)):
      throw .stockChanged(fruit: fruit, expected: expected, actual: actual)
    }
  }

  /// Makes juice under a request id, and returns its journal entry whatever the outcome.
  ///
  /// A reply built from the entry can be given again, the same, when the request is sent
  /// again: the entry holds the outcome, the shortages of a refusal, the levels before
  /// and after, and the sequence. The HTTP API answers orders this way.
  ///
  /// - Parameters:
  ///   - juice: The juice.
  ///   - count: How many, all or nothing.
  ///   - requestID: The request's id: an order already journaled under it is not made
  ///     again, and its entry comes back with the status `.replayed`; another operation
  ///     under it comes back as `.idReused`.
  /// - Returns: The receipt: the entry and whether it was performed now or replayed.
  /// - Throws: `JuiceMakerError.unknownJuice`, `.invalidCount`, or `.storage`; a refusal
  ///   for want of fruit is an outcome of the entry, not an error.
  public func order(_ juice: Juice, count: Int = 1, requestID: RequestID)
    throws(JuiceMakerError) -> StockReceipt
  {
    guard let index = catalog.index(of: juice) else { throw .unknownJuice(juice.id) }
    return try journal(index, count: count, requestID: requestID)
  }

  /// Runs an order through the storage, journaled under `requestID`.
  @usableFromInline
  func journal(_ index: Int, count: Int, requestID: RequestID) throws(JuiceMakerError)
    -> StockReceipt
  {
    guard count > 0, count <= recipes.maximumCounts[index] else {
      throw .invalidCount(count)
    }
    let juice = catalog.juices[index]
    let operation = StockOperation(
      id: requestID, editor: name, action: .order(juice.id, count: count), price: juice.price)
    let recipes = self.recipes
    do {
      return try store.perform(operation, touching: recipes.touching(index)) { levels in
        recipes.withdraw(index, count: count, from: &levels)
      }
    } catch {
      throw .storage(error)
    }
  }

  // MARK: - Availability

  /// How many of a juice the stock allows now, at once; 0 for an unknown juice.
  ///
  /// - Throws: `JuiceMakerError.storage` when the store cannot be read.
  public func makeableCount(of juice: Juice.ID) throws(JuiceMakerError) -> Int {
    guard let index = catalog.index(of: juice) else { return 0 }
    return recipes.makeableCount(index, levels: try levels())
  }

  /// Whether the stock allows `count` of a juice now.
  ///
  /// - Throws: `JuiceMakerError.storage` when the store cannot be read.
  public func canMake(_ juice: Juice.ID, count: Int = 1) throws(JuiceMakerError) -> Bool {
    guard count > 0 else { return false }
    return try makeableCount(of: juice) >= count
  }

  /// Every juice on the menu with how many the stock allows now, in menu order,
  /// all read at one instant.
  ///
  /// - Throws: `JuiceMakerError.storage` when the store cannot be read.
  public func availability() throws(JuiceMakerError) -> [MenuItem] {
    zip(catalog.juices, try makeableCounts()).map { MenuItem(juice: $0, makeable: $1) }
  }

  /// How many of each juice on the menu the stock allows now, in menu order, all read at
  /// one instant: ``availability()`` without a copy of each juice, for a large menu.
  ///
  /// - Throws: `JuiceMakerError.storage` when the store cannot be read.
  public func makeableCounts() throws(JuiceMakerError) -> [Int] {
    makeableCounts(levels: try levels())
  }

  /// How many of each juice on the menu the given levels allow at once, in menu
  /// order: for a screen that follows the store's changes without reading it again.
  ///
  /// - Parameter levels: One level per fruit of the store, in the order of
  ///   `store.fruits`, as `FruitStore.levels()` returns them.
  /// - Complexity: O(*n*) in the number of ingredients of the whole menu.
  public func makeableCounts(levels: [Int]) -> [Int] {
    catalog.juices.indices.map { recipes.makeableCount($0, levels: levels) }
  }

  private func levels() throws(JuiceMakerError) -> [Int] {
    do {
      return try store.levels()
    } catch {
      throw JuiceMakerError(error)
    }
  }

  // MARK: - Restocking

  /// Adds fruit to the shared store on behalf of this shop.
  ///
  /// - Parameters:
  ///   - count: How many to add; must be positive.
  ///   - fruit: The fruit.
  /// - Throws: `JuiceMakerError.invalidCount` for a count below 1, `.overflow` for
  ///   one that would overflow the stock, `.unknownFruit` for a fruit the store does
  ///   not hold, `.storage` when the store failed.
  public func restock(_ count: Int, of fruit: Fruit.ID) throws(JuiceMakerError) {
    guard count > 0 else { throw .invalidCount(count) }
    do {
      try store.restock(count, of: fruit, by: name)
    } catch {
      throw JuiceMakerError(error)
    }
  }
}

/// A juice on the menu and how many of it the stock allows now.
public struct MenuItem: Hashable, Sendable {
  /// The juice.
  public let juice: Juice
  /// How many the stock allows at once.
  public let makeable: Int
}
