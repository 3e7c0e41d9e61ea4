import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `juice-maker shop` in a terminal: the order screen and the stock screen, drawn on the
/// alternate screen and kept current while other shops sell from the same store.
///
/// A face of `ShopSession`: the loop waits for a key, a signal or a change of the store
/// (the store's change feed reports other processes' changes too), whichever comes
/// first, hands keys' requests to the session and redraws the rows that changed. Every
/// `pollInterval` the session reads the store, to show a store that stopped answering;
/// while it does not answer, the status line says so and the session tries again every
/// `retryInterval`, the screen staying open. The terminal is restored on every way out:
/// `q`, Ctrl-D, Ctrl-C, `SIGTERM`, `SIGHUP`, a closed terminal, and a store whose data
/// cannot be trusted.
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

  /// How often the store is read even when its change feed reports nothing: to see
  /// that it stopped answering, and to catch a change that never arrived.
  static let pollInterval: Duration = .seconds(1)
  /// How often requests the store did not answer are tried again.
  static let retryInterval: Duration = .milliseconds(500)
  /// How long an operation waits for another process's lock on the store (SQLite's
  /// busy timeout, PostgreSQL's `lock_timeout`) before the status line says the store
  /// is busy; the request is then tried again.
  static let busyTimeout: Duration = .milliseconds(200)

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
    var opened = try context.openShop(busyTimeout: Self.busyTimeout)
    let watcher = MenuWatcher(context: context, menu: opened.menu)
    let wakePipe = WakePipe()
    var selling = try Selling(opened, wake: wakePipe.wake, continuing: nil)

    guard let terminal = TerminalMode.enter() else { return .unavailable }
    guard let signals = TerminalSignals.watch(restoring: terminal) else {
      terminal.restore()
      return .unavailable
    }
    defer {
      terminal.restore()
      signals.stop()
    }
    var input = TerminalInput(
      descriptor: terminal.input, signals: signals, wake: wakePipe.descriptor)
    var screen = ScreenWriter(
      terminal: terminal, colors: ScreenWriter.colorsEnabled(environment: context.environment))
    var size = TerminalSize.of(descriptor: terminal.output) ?? .fallback
    let clock = ContinuousClock()
    var lastPoll = clock.now
    var lastMenuCheck = clock.now
    /// Takes the store's changes and the outcomes of requests that waited.
    func refresh(probe: Bool) throws(CLIError) {
      lastPoll = clock.now
      for outcome in try selling.session.refresh(probe: probe) { selling.state.take(outcome) }
      selling.state.update(from: selling.session)
    }
    /// Takes up a changed menu; a broken one shows on the status line instead.
    func followMenu() throws(CLIError) {
      lastMenuCheck = clock.now
      // Requests waiting for the store are settled under the menu they were made with.
      guard !selling.session.isWaiting else { return }
      if let menu = watcher.check(storage: opened.storage) {
        opened = try context.reopened(opened, with: menu, busyTimeout: Self.busyTimeout)
        selling = try Selling(opened, wake: wakePipe.wake, continuing: selling.session)
        selling.state.show(opened.context.texts.string("shop.menu.changed"), .info)
        screen.invalidate()
      }
      if selling.session.menuProblem != watcher.problem {
        selling.session.menuProblem = watcher.problem
        selling.state.update(from: selling.session)
      }
    }
    /// How long until the session reads the store again: sooner while it does not answer.
    func interval() -> Duration {
      selling.session.health == .good && !selling.session.isWaiting
        ? Self.pollInterval : Self.retryInterval
    }
    while true {
      screen.draw(selling.renderer.render(selling.state, size: size), size: size)
      let wait = max(
        .zero,
        min(interval() - (clock.now - lastPoll), MenuWatcher.interval - (clock.now - lastMenuCheck))
      )
      for event in input.next(timeout: wait) {
        switch event {
        case .resized:
          size = TerminalSize.of(descriptor: terminal.output) ?? size
          screen.invalidate()
        case .ending(let number):
          return .signal(number)
        case .closed:
          return .quit
        case .woken:
          wakePipe.drain()
          try refresh(probe: false)
        case .key(let key):
          guard let action = selling.state.handle(key) else { break }
          let session = selling.session
          switch action {
          case .quit: return .quit
          case .interrupt: return .signal(SIGINT)
          case .redraw: screen.invalidate()
          case .order(let juice, let count):
            selling.state.take(try session.submit(.order(juice: juice, count: count)))
            selling.state.update(from: session)
          case .setStock(let fruit, let level, let expected):
            selling.state.take(
              try session.submit(.setStock(fruit: fruit, level: level, seen: expected)))
            selling.state.update(from: session)
          }
        }
      }
      if clock.now - lastPoll >= interval() {
        try refresh(probe: true)
      }
      if clock.now - lastMenuCheck >= MenuWatcher.interval {
        try followMenu()
      }
    }
  }

  /// What the shop sells with one menu: the session, what the screen shows, and how.
  private struct Selling {
    let session: ShopSession
    var state: ShopState
    let renderer: ShopRenderer

    init(_ opened: OpenedShop, wake: @escaping @Sendable () -> Void, continuing: ShopSession?)
      throws(CLIError)
    {
      let catalog = opened.menu.catalog
      let store = opened.store
      let shop = JuiceMaker(name: opened.context.shopName, catalog: catalog, store: store)
      session = try ShopSession(
        shop: shop, texts: opened.context.texts, strings: opened.context.strings, wake: wake,
        continuing: continuing)
      state = ShopState(
        juiceCount: catalog.juices.count, fruitCount: store.fruits.count,
        levels: session.levels, makeable: session.makeable, answers: session.answers)
      state.update(from: session)
      renderer = ShopRenderer(
        texts: opened.context.texts, juices: catalog.juices.map(\.id), fruits: store.fruits,
        prices: catalog.juices.map(\.price), limits: session.limits)
    }
  }
}
