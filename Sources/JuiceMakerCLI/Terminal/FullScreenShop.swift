import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `juice-maker shop` in a terminal: the order screen and the stock screen, drawn on the
/// alternate screen and kept current while other shops sell from the same store.
///
/// The loop waits for a key, a signal or a change of the store (the store's change feed
/// reports other processes' changes too), whichever comes first, and redraws the rows
/// that changed; it also reads the store every `pollInterval` in case a wake-up was
/// missed. The
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

  /// How often the store is read even when its change feed reports nothing.
  static let pollInterval: Duration = .seconds(1)

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
    let session = try ShopSession(shop: shop, texts: context.texts)
    var state = session.initialState()
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
    var input = TerminalInput(
      descriptor: terminal.input, signals: signals, wake: session.changeDescriptor)
    var screen = ScreenWriter(
      terminal: terminal, colors: ScreenWriter.colorsEnabled(environment: context.environment))
    var size = TerminalSize.of(descriptor: terminal.output) ?? .fallback
    let clock = ContinuousClock()
    var lastPoll = clock.now
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
        case .woken:
          lastPoll = clock.now
          try session.poll(&state)
        case .key(let key):
          guard let action = state.handle(key) else { break }
          switch action {
          case .quit: return .quit
          case .interrupt: return .signal(SIGINT)
          case .redraw: screen.invalidate()
          case .order, .setStock:
            try session.perform(action, on: &state)
            lastPoll = clock.now
          }
        }
      }
      if clock.now - lastPoll >= Self.pollInterval {
        lastPoll = clock.now
        try session.poll(&state)
      }
    }
  }
}
