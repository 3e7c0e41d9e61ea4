import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `juice-maker shop` in a terminal: the order screen and the stock screen, drawn on the
/// alternate screen and kept current while other shops sell from the same store.
///
/// The loop waits for a key, a signal or the next look at the store (every
/// `pollInterval`), whichever comes first, and redraws the rows that changed. The
/// terminal is restored on every way out: `q`, Ctrl-D, Ctrl-C, `SIGTERM`, `SIGHUP`, a
/// closed terminal, and an error from the store.
struct FullScreenShop {
  /// How the shop ended.
  enum Ending: Equatable {
    /// `q` or Ctrl-D, or the terminal closed: exit 0.
    case quit
    /// Ctrl-C or an ending signal: the process must end by this signal, now that the
    /// terminal is restored.
    case signal(Int32)
    /// The terminal could not be put in raw mode; nothing was drawn.
    case unavailable
  }

  /// How often the store is read for changes made by other processes.
  static let pollInterval: Duration = .milliseconds(200)

  let context: Context

  /// Whether the full-screen shop can run: standard input and output are terminals and
  /// `TERM` names one that is not `dumb`.
  static func isPossible(environment: [String: String]) -> Bool {
    guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
    return isatty(0) == 1 && isatty(1) == 1
  }

  /// Runs the shop until it ends.
  ///
  /// - Returns: How it ended.
  /// - Throws: `CLIError` when the packs or the store cannot be used; the terminal is
  ///   restored first.
  func run() throws(CLIError) -> Ending {
    let catalog = try context.loadCatalog()
    let store = try context.openStore(for: catalog)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    let feed = try ShopFeed(store: store)
    let levels = feed.current
    var state = ShopState(
      juiceCount: catalog.juices.count, fruitCount: store.fruits.count, levels: levels,
      makeable: Self.makeable(catalog, fruits: store.fruits, levels: levels))
    let renderer = ShopRenderer(
      texts: context.texts, juices: catalog.juices.map(\.id), fruits: store.fruits)

    guard let terminal = TerminalMode.enter() else { return .unavailable }
    guard let signals = TerminalSignals.watch(restoring: terminal) else {
      terminal.restore()
      return .unavailable
    }
    defer {
      terminal.restore()
      signals.stop()
    }
    var input = TerminalInput(descriptor: terminal.input, signals: signals)
    var screen = ScreenWriter(
      terminal: terminal, colors: ScreenWriter.colorsEnabled(environment: context.environment))
    var size = TerminalSize.of(descriptor: terminal.output) ?? .fallback
    let clock = ContinuousClock()
    var lastPoll = clock.now
    /// Takes the store's state now: after this shop's own action, before the next key
    /// (keys pressed quickly arrive together, and each step starts from the level the
    /// one before it left), and every `pollInterval`.
    func poll() throws(CLIError) {
      lastPoll = clock.now
      guard let update = try feed.poll() else { return }
      refresh(&state, levels: update.levels, catalog: catalog, fruits: store.fruits)
      if let last = update.entries.compactMap(status(of:)).last { state.status = last }
    }
    while true {
      screen.draw(renderer.render(state, size: size), size: size)
      let wait = max(.zero, Self.pollInterval - (clock.now - lastPoll))
      for event in input.next(timeout: wait) {
        switch event {
        case .resized:
          size = TerminalSize.of(descriptor: terminal.output) ?? size
          screen.invalidate()
        case .ending(let number):
          return .signal(number)
        case .closed:
          return .quit
        case .key(let key):
          switch state.handle(key) {
          case nil: break
          case .quit: return .quit
          case .interrupt: return .signal(SIGINT)
          case .redraw: screen.invalidate()
          case .order(let juice, let count):
            try order(
              catalog.juices[juice], count: count, at: shop, id: feed.ownRequest(), state: &state)
            try poll()
          case .setStock(let fruit, let level, let expected):
            try setStock(
              store.fruits[fruit], to: level, expected: expected, in: shop,
              id: feed.ownRequest(), state: &state)
            try poll()
          }
        }
      }
      if clock.now - lastPoll >= Self.pollInterval { try poll() }
    }
  }

  // MARK: - Actions

  private func order(
    _ juice: Juice, count: Int, at shop: JuiceMaker, id: RequestID, state: inout ShopState
  ) throws(CLIError) {
    let texts = context.texts
    do throws(CLIError) {
      let order = try OrderCommand.make(juice, count: count, at: shop, requestID: id)
      state.ordered(texts.orderMessage(order))
    } catch {
      switch error {
      case .outOfStock(let shortages):
        let rows = shortages.compactMap { shortage in
          shop.store.fruits.firstIndex(of: shortage.fruit)
        }
        state.refused(error.message(texts), shortFruits: rows)
      case .storeUnavailable, .invalidStore:
        throw error
      default:
        state.show(error.message(texts), .bad)
      }
    }
  }

  /// Sets a fruit's level if it is still the level the screen showed; otherwise shows the
  /// level now, and changes nothing.
  private func setStock(
    _ fruit: Fruit.ID, to level: Int, expected: Int, in shop: JuiceMaker, id: RequestID,
    state: inout ShopState
  ) throws(CLIError) {
    let texts = context.texts
    do throws(FruitStoreError) {
      let change = try shop.store.setStock(
        level, of: fruit, by: shop.name, expecting: expected, requestID: id)
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

  // MARK: - The store's state

  private func refresh(
    _ state: inout ShopState, levels: [Int], catalog: Catalog, fruits: [Fruit.ID]
  ) {
    state.update(levels: levels, makeable: Self.makeable(catalog, fruits: fruits, levels: levels))
  }

  /// How many of each juice the levels allow, in menu order.
  static func makeable(_ catalog: Catalog, fruits: [Fruit.ID], levels: [Int]) -> [Int] {
    var byFruit: [Fruit.ID: Int] = [:]
    for (fruit, level) in zip(fruits, levels) { byFruit[fruit] = level }
    return catalog.juices.map { juice in
      juice.ingredients.map { (byFruit[$0.fruit] ?? 0) / max(1, $0.count) }.min() ?? 0
    }
  }

  /// "airport: 딸바쥬스 1잔": what another shop did, or `nil` for an entry that changed
  /// nothing.
  private func status(of entry: JournalEntry) -> String? {
    guard entry.outcome == .done, !entry.changes.isEmpty else { return nil }
    let texts = context.texts
    let shop = Texts.shown(entry.operation.editor)
    switch entry.operation.action {
    case .order(let juice, let count):
      return texts.string(
        "tui.status.order", .string(shop), .string(texts.name(of: juice)), .int(count))
    case .add, .remove, .set:
      return entry.changes.map { change in
        let delta = change.after - change.before
        return texts.string(
          "tui.status.stock", .string(shop), .string(texts.name(of: change.fruit)),
          .string((delta > 0 ? "+" : "") + String(delta)))
      }.joined(separator: ", ")
    }
  }
}
