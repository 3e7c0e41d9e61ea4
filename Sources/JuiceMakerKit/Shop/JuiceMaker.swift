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
  /// - Returns: The order.
  /// - Throws: `JuiceMakerError.outOfStock` listing every short fruit in recipe
  ///   order; `.unknownJuice`, `.invalidCount` or `.storage` otherwise.
  /// - Complexity: O(*k*) for a recipe of *k* fruits, after one id lookup.
  @discardableResult
  public func make(_ juice: Juice.ID, count: Int = 1) throws(JuiceMakerError) -> Order {
    guard let index = catalog.index(of: juice) else { throw .unknownJuice(juice) }
    try withdraw(index, count: count)
    return Order(juice: juice, count: count)
  }

  /// Makes juice from a juice value, skipping the id lookup for juices of this
  /// shop's catalog.
  ///
  /// - Parameters:
  ///   - juice: The juice to make, preferably taken from `catalog.juices`.
  ///   - count: How many to make at once.
  /// - Returns: The order.
  /// - Throws: As `make(_:count:)` with an id.
  /// - Complexity: O(*k*) for a recipe of *k* fruits.
  @inlinable @discardableResult
  public func make(_ juice: Juice, count: Int = 1) throws(JuiceMakerError) -> Order {
    let index: Int
    if let position = juice.position, position.catalog == recipes.catalogSerial {
      index = position.index
    } else {
      guard let found = catalog.index(of: juice) else { throw .unknownJuice(juice.id) }
      index = found
    }
    try withdraw(index, count: count)
    return Order(juice: juice.id, count: count)
  }

  @inlinable
  func withdraw(_ index: Int, count: Int) throws(JuiceMakerError) {
    guard count > 0, count <= recipes.maximumCounts[index] else {
      throw .invalidCount(count)
    }
    let shortages: [Shortage]?
    if let fast = recipes.withdrawInMemory(index, count: count) {
      shortages = fast
    } else {
      shortages = try withdrawReporting(index, count: count)
    }
    if let shortages { throw .outOfStock(shortages) }
  }

  /// The general path: persistent storage, or observers listening.
  @usableFromInline @inline(never)
  func withdrawReporting(_ index: Int, count: Int) throws(JuiceMakerError) -> [Shortage]? {
    let operation = StockOperation(
      kind: .order, shop: name, subject: catalog.juices[index].id.rawValue, count: count)
    let recipes = self.recipes
    do {
      return try store.perform(operation) { levels in
        let shortages = recipes.withdraw(index, count: count, from: &levels)
        return (shortages, shortages == nil ? .done : .refused)
      }
    } catch {
      if case .storage(let storageError) = error { throw .storage(storageError) }
      throw .storage(.unavailable(path: "", detail: error.description))
    }
  }

  // MARK: - Availability

  /// How many of a juice the stock allows now, at once; 0 for an unknown juice.
  public func makeableCount(of juice: Juice.ID) -> Int {
    guard let index = catalog.index(of: juice) else { return 0 }
    return recipes.makeableCount(index, levels: store.levels())
  }

  /// Whether the stock allows `count` of a juice now.
  public func canMake(_ juice: Juice.ID, count: Int = 1) -> Bool {
    count > 0 && makeableCount(of: juice) >= count
  }

  /// Every juice on the menu with how many the stock allows now, in menu order,
  /// all read at one instant.
  public func availability() -> [MenuItem] {
    let levels = store.levels()
    return catalog.juices.indices.map { index in
      MenuItem(
        juice: catalog.juices[index], makeable: recipes.makeableCount(index, levels: levels))
    }
  }

  // MARK: - Restocking

  /// Adds fruit to the shared store on behalf of this shop.
  ///
  /// - Parameters:
  ///   - count: How many to add; must be positive.
  ///   - fruit: The fruit.
  /// - Throws: `JuiceMakerError.invalidCount` for a count below 1 or one that would
  ///   overflow the stock, `.unknownFruit` for a fruit the store does not hold.
  public func restock(_ count: Int, of fruit: Fruit.ID) throws(JuiceMakerError) {
    guard count > 0 else { throw .invalidCount(count) }
    do {
      try store.add(count, of: fruit, by: name)
    } catch {
      switch error {
      case .unknownFruit(let fruit): throw .unknownFruit(fruit)
      case .storage(let storageError): throw .storage(storageError)
      case .negativeQuantity, .overflow, .insufficientStock: throw .invalidCount(count)
      }
    }
  }
}

/// A juice on the menu and how many of it the stock allows now.
public struct MenuItem: Hashable, Sendable {
  /// The juice.
  public let juice: Juice
  /// How many the stock allows at once.
  public let makeable: Int

  /// Whether at least one can be made.
  public var isAvailable: Bool { makeable > 0 }
}
