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
    let catalog = try context.loadCatalog()
    let store = try context.openStore(for: catalog, busyTimeout: Self.busyTimeout)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    let wakePipe = WakePipe()
    let session = try ShopSession(
      shop: shop, texts: context.texts, strings: context.strings, wake: wakePipe.wake)
    var state = ShopState(
      juiceCount: catalog.juices.count, fruitCount: store.fruits.count, levels: session.levels,
      makeable: session.makeable, answers: session.answers)
    state.update(from: session)
    let renderer = ShopRenderer(
      texts: context.texts, juices: catalog.juices.map(\.id), fruits: store.fruits,
      prices: catalog.juices.map(\.price), limits: session.limits)

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
    /// Takes the store's changes and the outcomes of requests that waited.
    func refresh(probe: Bool) throws(CLIError) {
      lastPoll = clock.now
      for outcome in try session.refresh(probe: probe) { state.take(outcome) }
      state.update(from: session)
    }
    /// How long until the session reads the store again: sooner while it does not answer.
    func interval() -> Duration {
      session.health == .good && !session.isWaiting ? Self.pollInterval : Self.retryInterval
    }
    while true {
      screen.draw(renderer.render(state, size: size), size: size)
      let wait = max(.zero, interval() - (clock.now - lastPoll))
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
          guard let action = state.handle(key) else { break }
          switch action {
          case .quit: return .quit
          case .interrupt: return .signal(SIGINT)
          case .redraw: screen.invalidate()
          case .order(let juice, let count):
            state.take(try session.submit(.order(juice: juice, count: count)))
            state.update(from: session)
          case .setStock(let fruit, let level, let expected):
            state.take(try session.submit(.setStock(fruit: fruit, level: level, seen: expected)))
            state.update(from: session)
          }
        }
      }
      if clock.now - lastPoll >= interval() {
        try refresh(probe: true)
      }
    }
  }
}
