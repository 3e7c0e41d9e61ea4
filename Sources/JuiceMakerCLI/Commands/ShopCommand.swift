import JuiceMakerCatalog
import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `juice-maker shop`, also what runs with no command: the interactive shop.
///
/// In a terminal (standard input and output both terminals, `TERM` set and not `dumb`) it
/// opens `FullScreenShop`. Otherwise, or with `--plain`, it is the line-mode shop: the
/// order screen shows the title, the stock board and the numbered menu with makeable
/// counts. A refusal asks whether to edit the stock, showing the answers it takes (`q`, an
/// empty line and Escape are "no"); yes opens the stock screen (`+ FRUIT N`, `- FRUIT N`,
/// `= FRUIT N`, then close). `?`, `help` or `도움말` prints the screen's own syntax, and a
/// mistake is answered with that syntax too. It reads one command per line, from a
/// terminal or a pipe, each at most `ShopLineReader.limit` bytes, and ends cleanly at the
/// end of input (with exit 74 when the input cannot be read).
///
/// Both modes are faces of one `ShopSession`, which carries out orders and stock edits
/// and answers the questions' yes and no words. When the store does not answer, the line
/// shop says why and tries the same request again for up to `patience`.
struct ShopCommand: Command {
  static let plainFlag = Flag("plain")
  static let definition = CommandDefinition(
    name: "shop", options: [plainFlag.spec], takesJSON: false, loadsMenu: true)

  private(set) var context: Context
  /// Whether the line mode was asked for even in a terminal.
  let plain: Bool
  /// A shop's orders and edits stand when its output cannot be written.
  var changesStore: Bool { true }

  init(parsing line: ParsedCommandLine, context: Context) {
    self.context = context
    plain = line.isSet(Self.plainFlag)
  }

  private var texts: Texts { context.texts }

  /// How long the line shop tries a request again while the store does not answer,
  /// before it ends with the store's error.
  static let patience: Duration = .seconds(15)
  /// How long to wait between two tries.
  static let retryInterval: Duration = .milliseconds(250)
  /// How long an operation waits for another process's lock on the store (SQLite's busy
  /// timeout, PostgreSQL's `lock_timeout`) before the line shop says the store is busy: long enough that shops selling from one store
  /// at once wait for each other in silence.
  static let busyTimeout: Duration = .seconds(5)

  func run(input: inout any LineInput) throws(CLIError) {
    if !plain, input is StandardInput,
      FullScreenShop.isPossible(environment: context.environment)
    {
      switch try FullScreenShop(context: context).run() {
      case .quit: return
      case .signal(let number): TerminalSignals.end(by: number)
      case .unavailable: break
      }
    }
    var opened = try context.openShop(busyTimeout: Self.busyTimeout)
    let watcher = MenuWatcher(context: context, menu: opened.menu)
    var reader =
      input is StandardInput ? ShopLineReader(descriptor: 0) : ShopLineReader(input)
    var session: ShopSession?
    var pending: String?
    while true {
      // The rest speaks with the menu's strings, the store's published catalogs included.
      var command = self
      command.context = opened.context
      let shop = JuiceMaker(
        name: context.shopName, catalog: opened.menu.catalog, store: opened.store)
      let next = try ShopSession(
        shop: shop, texts: opened.context.texts, strings: opened.context.strings,
        continuing: session)
      session = next
      guard
        let change = try command.sell(
          next, watcher: watcher, storage: opened.storage, reader: &reader, pending: pending)
      else { return }
      opened = try context.reopened(opened, with: change.menu, busyTimeout: Self.busyTimeout)
      pending = change.pending
      context.say(opened.context.texts.string("shop.menu.changed"))
    }
  }

  /// Sells with one menu until the input ends, the person quits, or the menu changes.
  ///
  /// The menu is looked at before each prompt and again once a line is read, so a line
  /// typed for a juice published meanwhile is taken under the new menu.
  ///
  /// - Parameter pending: A line read under the last menu, to take first.
  /// - Returns: The changed menu with the line read under the last one, if any; `nil`
  ///   when the shop ends.
  private func sell(
    _ session: ShopSession, watcher: MenuWatcher, storage: any StockStorage,
    reader: inout ShopLineReader, pending: String?
  ) throws(CLIError) -> (menu: ShopMenu, pending: String?)? {
    let catalog = session.shop.catalog
    let names = NameIndex(catalog: catalog, strings: context.strings)
    var showScreen = pending == nil
    var pending = pending
    /// The changed menu, when it may be taken up now; its problem is said once.
    func changedMenu() -> ShopMenu? {
      // Requests waiting for the store are settled under the menu they were made with.
      if !session.isWaiting, let menu = watcher.check(storage: storage) { return menu }
      if session.menuProblem != watcher.problem {
        session.menuProblem = watcher.problem
        if let problem = watcher.problem { context.errorOutput.write(problem + "\n") }
      }
      return nil
    }
    while true {
      let line: String
      if let taken = pending {
        line = taken
        pending = nil
      } else {
        if let menu = changedMenu() { return (menu, nil) }
        if showScreen { try showOrderScreen(session) }
        showScreen = false
        context.output.write(texts.string("shop.prompt") + " ")
        guard let read = try readLine(&reader) else {
          context.say("")
          return nil
        }
        if let menu = changedMenu() { return (menu, read) }
        line = read
      }
      let choice = line.trimmingWhitespace()
      if choice.isEmpty { continue }
      let folded = NameIndex.normalized(choice)
      if Self.asksForHelp(folded) {
        context.say(texts.string("shop.order.help"))
        continue
      }
      if ["q", "quit", "exit", NameIndex.normalized(texts.localizer.string("shop.quit"))]
        .contains(folded)
      {
        context.say(texts.string("shop.bye"))
        return nil
      }
      if [
        "s", "stock", NameIndex.normalized(texts.localizer.string(LocalizationKey.editStockButton)),
      ]
      .contains(folded) {
        guard try stockScreen(session, names: names, reader: &reader) else { return nil }
        showScreen = true
        continue
      }
      let juice: Int
      do throws(CLIError) {
        juice = try pick(choice, catalog: catalog, names: names)
      } catch {
        context.errorOutput.write(
          texts.string("shop.order.unknown", .string(texts.shown(choice))) + " "
            + texts.string("shop.order.help") + "\n")
        continue
      }
      switch try settle(session.submit(.order(juice: juice, count: 1)), session) {
      case .served(let text):
        context.say(text)
        showScreen = true
      case .refused(let text, _):
        context.say(text)
        guard let wantsEdit = try ask(session.answers, reader: &reader) else {
          context.say("")
          return nil
        }
        if wantsEdit {
          guard try stockScreen(session, names: names, reader: &reader) else { return nil }
        }
        showScreen = true
      case .updated(let text), .stale(let text), .rejected(let text), .waiting(let text):
        context.errorOutput.write(text + "\n")
      }
    }
  }

  /// The next line, telling of an over-long one and going on; `nil` at the end of input.
  ///
  /// - Throws: `CLIError.alreadyReported(.ioError)` when the input cannot be read, after
  ///   saying so.
  private func readLine(_ reader: inout ShopLineReader) throws(CLIError) -> String? {
    while true {
      switch reader.next() {
      case .line(let line): return line
      case .end: return nil
      case .tooLong:
        context.errorOutput.write(
          texts.string("shop.lineTooLong", .int(ShopLineReader.limit)) + "\n")
        context.output.write(texts.string("shop.prompt") + " ")
      case .failed(let reason):
        context.say("")
        context.errorOutput.write(
          texts.string("shop.inputUnreadable", .string(texts.shown(reason))) + "\n")
        throw .alreadyReported(.ioError)
      }
    }
  }

  /// Waits for a request the store did not answer at once, trying it again under its
  /// request id until the store answers, for at most `patience`.
  ///
  /// - Throws: The store's error when it did not answer within `patience`.
  private func settle(_ outcome: ShopOutcome, _ session: ShopSession) throws(CLIError)
    -> ShopOutcome
  {
    guard case .waiting = outcome else { return outcome }
    return try retrying(session) { () throws(CLIError) in try session.refresh().first }
  }

  /// Takes the store's changes before a screen is shown, waiting for the store for at
  /// most `patience` when it does not answer.
  ///
  /// - Throws: The store's error when it did not answer within `patience`.
  private func refreshForScreen(_ session: ShopSession) throws(CLIError) {
    _ = try session.refresh()
    guard session.health != .good else { return }
    try retrying(session) { () throws(CLIError) -> Bool? in
      _ = try session.refresh()
      return session.health == .good ? true : nil
    }
  }

  /// Says on standard error why the store does not answer, then runs `attempt` every
  /// `retryInterval` until it gives a value.
  ///
  /// - Throws: The store's error when `attempt` gave none within `patience`, or at once
  ///   when the store's file was replaced under the shop.
  @discardableResult
  private func retrying<Value>(
    _ session: ShopSession, _ attempt: () throws(CLIError) -> Value?
  ) throws(CLIError) -> Value {
    if let status = session.status { context.errorOutput.write(status + "\n") }
    // A store file replaced under the shop never answers again: no use waiting.
    if session.health == .replaced, let failure = session.failure { throw CLIError(failure) }
    let clock = ContinuousClock()
    let deadline = clock.now + Self.patience
    while true {
      sleep(for: Self.retryInterval)
      if let value = try attempt() { return value }
      guard clock.now < deadline else {
        throw session.failure.map(CLIError.init)
          ?? .store(
            .unavailable(
              store: session.shop.store.location,
              cause: StorageFailure(
                code: "", message: "it did not answer", purpose: "trying the request again")))
      }
    }
  }

  private func sleep(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var left = timespec()
    while nanosleep(&time, &left) != 0, errno == EINTR { time = left }
  }

  /// A juice's menu position, by menu number, id or name.
  private func pick(_ choice: String, catalog: Catalog, names: NameIndex) throws(CLIError) -> Int {
    if let number = Self.menuNumber(choice) {
      guard number >= 1, number <= catalog.juices.count else {
        throw .unknownJuice(choice)
      }
      return number - 1
    }
    let juice = try names.juice(named: choice, in: catalog)
    guard let index = catalog.juices.firstIndex(where: { $0.id == juice.id }) else {
      throw .unknownJuice(choice)
    }
    return index
  }

  /// Whether a line asks for the screen's help: `?`, `help` or `도움말`.
  static func asksForHelp(_ folded: String) -> Bool {
    ["?", "help", "도움말"].contains(folded)
  }

  /// Asks the yes-or-no question after a refusal; `nil` at the end of input.
  ///
  /// It takes the session's yes and no words; `q`, an empty line and Escape are no
  /// too. The prompt shows the answers, and anything else is named and the question
  /// asked again.
  private func ask(_ answers: AnswerWords, reader: inout ShopLineReader) throws(CLIError)
    -> Bool?
  {
    let yes = texts.string(LocalizationKey.yes)
    let no = texts.string(LocalizationKey.no)
    let prompt = texts.string("shop.answer.prompt", .string(yes), .string(no)) + " "
    while true {
      context.output.write(prompt)
      guard let line = try readLine(&reader) else { return nil }
      if line.unicodeScalars.first == "\u{1B}" { return false }
      if ["", "q"].contains(NameIndex.normalized(line)) { return false }
      if let answer = answers.answer(line) { return answer }
      context.errorOutput.write(
        texts.string("shop.answer.unknown", .string(texts.shown(line.trimmingWhitespace())))
          + "\n")
    }
  }

  private func showOrderScreen(_ session: ShopSession) throws(CLIError) {
    try refreshForScreen(session)
    context.say("")
    context.say(texts.string(LocalizationKey.orderScreenTitle))
    context.say(stockBoard(session))
    let juices = session.shop.catalog.juices
    let names = juices.map { texts.name(of: $0.id) }
    let width = names.map(\.displayWidth).max() ?? 0
    let prices = juices.map { $0.price.map(texts.price) ?? "" }
    let priceWidth = prices.map(\.displayWidth).max() ?? 0
    for (index, (makeable, name)) in zip(session.makeable, names).enumerated() {
      let number = String(index + 1)
      let price =
        priceWidth == 0
        ? ""
        : String(repeating: " ", count: priceWidth - prices[index].displayWidth) + prices[index]
          + "  "
      context.say(
        String(repeating: " ", count: max(0, 3 - number.count)) + number + ") "
          + name.padded(to: width) + "  " + price + texts.string("menu.makeable", .int(makeable)))
    }
    context.say(
      "  s) " + texts.string(LocalizationKey.editStockButton) + "   q) "
        + texts.string("shop.quit"))
  }

  /// "딸기 10 · 바나나 9 · …".
  private func stockBoard(_ session: ShopSession) -> String {
    zip(session.shop.store.fruits, session.levels).enumerated().map { index, pair in
      let (fruit, level) = pair
      return texts.name(of: fruit, count: level) + " " + String(level)
        + (session.isLow(index) ? " " + texts.string("stock.low.mark") : "")
    }.joined(separator: " · ")
  }

  /// The stock screen; returns `false` at the end of input.
  private func stockScreen(
    _ session: ShopSession, names: NameIndex, reader: inout ShopLineReader
  ) throws(CLIError) -> Bool {
    let store = session.shop.store
    var showScreen = true
    // The levels the screen last showed: `= FRUIT N` sets a level only if it is still the
    // one shown, so a set made from a stale screen never overwrites another shop's edit.
    var shown: [Int] = []
    while true {
      if showScreen {
        try refreshForScreen(session)
        context.say("")
        context.say(texts.string(LocalizationKey.stockScreenTitle))
        shown = session.levels
        for (index, (fruit, level)) in zip(store.fruits, shown).enumerated() {
          context.say(
            "  \(index + 1)) " + texts.name(of: fruit, count: level) + " " + String(level))
        }
        context.say(stockHelp)
      }
      showScreen = false
      context.output.write(texts.string("shop.prompt") + " ")
      guard let line = try readLine(&reader) else {
        context.say("")
        return false
      }
      let trimmed = line.trimmingWhitespace()
      if trimmed.isEmpty { continue }
      let folded = NameIndex.normalized(trimmed)
      if Self.asksForHelp(folded) {
        context.say(stockHelp)
        continue
      }
      if trimmed.unicodeScalars.first == "\u{1B}" { return true }
      if [
        "c", "close", "q",
        NameIndex.normalized(texts.localizer.string(LocalizationKey.closeButton)),
      ]
      .contains(folded) {
        return true
      }
      do throws(CLIError) {
        let (action, fruit, quantity) = try parseEdit(trimmed, store: store, names: names)
        guard let index = store.index(of: fruit) else { throw .unknownFruit(fruit.rawValue) }
        let request: ShopRequest =
          switch action {
          case .add: .add(fruit: index, count: quantity)
          case .remove: .remove(fruit: index, count: quantity)
          case .set: .setStock(fruit: index, level: quantity, seen: shown[index])
          }
        switch try settle(session.submit(request), session) {
        case .updated(let text), .served(let text):
          context.say(text)
          showScreen = true
        case .stale(let text):
          context.errorOutput.write(text + "\n")
          showScreen = true
        case .rejected(let text), .refused(let text, _), .waiting(let text):
          context.errorOutput.write(text + "\n")
        }
      } catch {
        switch error {
        case .store: throw error
        case .unknownFruit(let name):
          context.errorOutput.write(
            texts.string("shop.stock.unknownFruit", .string(texts.shown(name))) + " " + stockHelp
              + "\n")
        case .unknownCommand(let line):
          context.errorOutput.write(
            texts.string("shop.stock.unknownCommand", .string(texts.shown(line))) + " "
              + stockHelp + "\n")
        case .missingArgument(let argument, _):
          let key = argument == "N" ? "shop.stock.missingQuantity" : "shop.stock.missingFruit"
          context.errorOutput.write(texts.string(key) + " " + stockHelp + "\n")
        case .notWholeNumber(let value, _):
          context.errorOutput.write(
            texts.string("shop.stock.badQuantity", .string(texts.shown(value))) + " "
              + stockHelp + "\n")
        default:
          context.errorOutput.write(error.message(texts) + "\n")
        }
      }
    }
  }

  /// The stock screen's syntax.
  private var stockHelp: String {
    texts.string("shop.stock.help", .string(texts.string(LocalizationKey.closeButton)))
  }

  /// `+ FRUIT N`, `- FRUIT N` or `= FRUIT N`; FRUIT by number, id or name, N a whole number,
  /// with or without a space before it and a unit after it (`+ 딸기 10`, `+ 딸기 10개`,
  /// `+딸기10`, `+ 1 10`).
  ///
  /// - Throws: `CLIError.unknownCommand` for a line that is not an edit,
  ///   `.missingArgument` naming `N` or `FRUIT`, `.notWholeNumber` for a malformed N,
  ///   `.unknownFruit`, or a number out of range.
  private func parseEdit(_ line: String, store: FruitStore, names: NameIndex) throws(CLIError)
    -> (StockAction, Fruit.ID, Int)
  {
    guard let sign = line.first, "+-=".contains(sign) else {
      throw .unknownCommand(line)
    }
    let action: StockAction = sign == "+" ? .add : sign == "-" ? .remove : .set
    let rest = String(line.dropFirst()).trimmingWhitespace()
    guard !rest.isEmpty else { throw .missingArgument(argument: "FRUIT", command: String(sign)) }
    let units = texts.localizer.string("shop.stock.units").split(separator: ",").map {
      String($0).trimmingWhitespace()
    }
    let (fruitText, quantityText) = Self.splitQuantity(rest, units: units)
    let fruitName = fruitText.trimmingWhitespace()
    /// The last word, when the words before it are a fruit: a malformed N (`= 딸기 abc`).
    func malformedQuantity() -> String? {
      guard let space = rest.lastIndex(of: " "),
        (try? fruit(named: String(rest[..<space]), store: store, names: names)) != nil
      else { return nil }
      return String(rest[rest.index(after: space)...])
    }
    guard let quantityText else {
      if (try? fruit(named: rest, store: store, names: names)) != nil {
        throw .missingArgument(argument: "N", command: String(sign))
      }
      if let malformed = malformedQuantity() {
        throw .notWholeNumber(value: malformed, option: "N")
      }
      throw .unknownFruit(rest)
    }
    guard !fruitName.isEmpty else {
      throw .missingArgument(argument: "FRUIT", command: String(sign))
    }
    let chosen: Fruit.ID
    do throws(CLIError) {
      chosen = try fruit(named: fruitName, store: store, names: names)
    } catch {
      if let malformed = malformedQuantity() {
        throw .notWholeNumber(value: malformed, option: "N")
      }
      throw error
    }
    return (action, chosen, try Quantity.parse(quantityText, for: "N", action.rule))
  }

  /// A number on a screen's list, in ASCII digits alone: `+2` and `٢` are names, not
  /// numbers, as they are no count either.
  static func menuNumber(_ text: String) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }

  /// A fruit by its number on the stock screen, its id or a name.
  private func fruit(named name: String, store: FruitStore, names: NameIndex) throws(CLIError)
    -> Fruit.ID
  {
    if let number = Self.menuNumber(name), number >= 1, number <= store.fruits.count {
      return store.fruits[number - 1]
    }
    return try names.fruit(named: name)
  }

  /// Splits `딸기 10개` into `딸기` and `10`: the number at the end, with an optional sign
  /// before it and one of the units after it; `nil` when the text does not end in one.
  static func splitQuantity(_ text: String, units: [String]) -> (String, String?) {
    var body = Substring(text)
    for unit in units where !unit.isEmpty && body.hasSuffix(unit) {
      body = body.dropLast(unit.count)
      break
    }
    let digits = body.reversed().prefix { $0.isASCII && $0.isNumber }.count
    guard digits > 0 else { return (text, nil) }
    var start = body.index(body.endIndex, offsetBy: -digits)
    if start > body.startIndex, "+-".contains(body[body.index(before: start)]) {
      let signIndex = body.index(before: start)
      // A sign counts only where a word starts: `+ 딸기 -3`, not `mango-kiwi3`.
      if signIndex == body.startIndex || body[body.index(before: signIndex)] == " " {
        start = signIndex
      }
    }
    return (String(body[..<start]), String(body[start...]))
  }
}
