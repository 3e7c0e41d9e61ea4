import JuiceMakerKit

/// The full-screen shop's link to the store: carries out the actions keys ask for, and
/// takes the store's changes, its own and other shops', into the state.
///
/// It knows nothing of the terminal, so a test can drive it with a store in memory.
struct ShopSession {
  let shop: JuiceMaker
  let texts: Texts
  private let feed: ShopFeed

  /// Starts a session at the store's current state.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  init(shop: JuiceMaker, texts: Texts) throws(CLIError) {
    self.shop = shop
    self.texts = texts
    feed = try ShopFeed(store: shop.store)
  }

  /// The state of the screens at the store's current levels.
  func initialState() -> ShopState {
    let levels = feed.current
    return ShopState(
      juiceCount: shop.catalog.juices.count, fruitCount: shop.store.fruits.count, levels: levels,
      makeable: makeable(levels))
  }

  /// Carries out an order or a stock edit, then takes the store's state at once: keys
  /// pressed quickly arrive together, and each must start from what the one before left.
  ///
  /// - Throws: `CLIError` when the store fails; a refusal or a stale level is shown in the
  ///   state instead.
  func perform(_ action: ShopAction, on state: inout ShopState) throws(CLIError) {
    switch action {
    case .order(let juice, let count):
      try order(shop.catalog.juices[juice], count: count, state: &state)
    case .setStock(let fruit, let level, let expected):
      try setStock(shop.store.fruits[fruit], to: level, expected: expected, state: &state)
    case .redraw, .quit, .interrupt:
      return
    }
    try poll(&state)
  }

  /// Takes the store's levels into the state when they moved, and the last thing another
  /// shop did into the status line.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  func poll(_ state: inout ShopState) throws(CLIError) {
    guard let update = try feed.poll() else { return }
    state.update(levels: update.levels, makeable: makeable(update.levels))
    if let last = update.changes.compactMap(status(of:)).last { state.status = last }
  }

  // MARK: - Actions

  private func order(_ juice: Juice, count: Int, state: inout ShopState) throws(CLIError) {
    do throws(CLIError) {
      let order = try shop.serve(juice, count: count, requestID: feed.ownRequest())
      state.ordered(texts.orderMessage(order))
    } catch {
      switch error {
      case .outOfStock(let shortages):
        let rows = shortages.compactMap { shop.store.index(of: $0.fruit) }
        state.refused(error.message(texts), shortFruits: rows)
      case .storeUnavailable, .invalidStore:
        throw error
      default:
        state.show(error.message(texts), .bad)
      }
    }
  }

  /// Sets a fruit's level if it is still the level the screen showed; otherwise says what
  /// was found and changes nothing (the next poll shows the level now).
  private func setStock(_ fruit: Fruit.ID, to level: Int, expected: Int, state: inout ShopState)
    throws(CLIError)
  {
    do throws(FruitStoreError) {
      let change = try shop.store.setStock(
        level, of: fruit, by: shop.name, expecting: expected, requestID: feed.ownRequest())
      state.show(
        texts.string("stock.updated", .string(texts.name(of: fruit)), .int(change.after)), .info)
    } catch {
      let failure = CLIError(error)
      switch failure {
      case .storeUnavailable, .invalidStore: throw failure
      default: state.show(failure.message(texts), .bad)
      }
    }
  }

  // MARK: - What the screens show

  /// How many of each juice the levels allow, in menu order.
  func makeable(_ levels: [Int]) -> [Int] {
    shop.catalog.juices.map { juice in
      juice.ingredients.map { ingredient in
        let level = shop.store.index(of: ingredient.fruit).map { levels[$0] } ?? 0
        return level / max(1, ingredient.count)
      }.min() ?? 0
    }
  }

  /// The descriptor that becomes readable when the store changed.
  var changeDescriptor: Int32 { feed.descriptor }

  /// "airport: 딸바쥬스 1잔": what another shop did, or `nil` for a change of no level.
  func status(of change: StockChange) -> String? {
    guard !change.levels.isEmpty else { return nil }
    let editor = Texts.shown(change.operation.editor)
    switch change.operation.action {
    case .order(let juice, let count):
      return texts.string(
        "tui.status.order", .string(editor), .string(texts.name(of: juice)), .int(count))
    case .add, .remove, .set:
      return change.levels.map { level in
        let delta = level.after - level.before
        return texts.string(
          "tui.status.stock", .string(editor), .string(texts.name(of: level.fruit)),
          .string((delta > 0 ? "+" : "") + String(delta)))
      }.joined(separator: ", ")
    }
  }
}
