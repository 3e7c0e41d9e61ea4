import JuiceMakerKit

/// `juice-maker shop`, also what runs with no command: the interactive shop.
///
/// The order screen shows the title, the stock board and the numbered menu with
/// makeable counts. A refusal asks whether to edit the stock; yes opens the stock
/// screen (`+ FRUIT N`, `- FRUIT N`, `= FRUIT N`, then close). It reads one command
/// per line, from a pipe, with `TERM=dumb`, or with `--plain`, and ends cleanly at the
/// end of input; in a terminal it opens `FullScreenShop` instead.
struct ShopCommand {
  let context: Context

  private var texts: Texts { context.texts }

  func run(input: inout some LineInput) throws(CLIError) {
    _ = try context.arguments([], command: "shop")
    if !context.invocation.has("plain"), input is StandardInput,
      FullScreenShop.isPossible(environment: context.environment)
    {
      switch try FullScreenShop(context: context).run() {
      case .quit: return
      case .signal(let number): TerminalSignals.end(by: number)
      case .unavailable: break
      }
    }
    let catalog = try context.loadCatalog()
    let names = NameIndex(catalog: catalog, strings: context.strings)
    let store = try context.openStore(for: catalog)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    var showScreen = true
    while true {
      if showScreen { try showOrderScreen(shop) }
      showScreen = false
      context.output.write(texts.string("shop.prompt") + " ")
      guard let line = input.readLine() else {
        context.say("")
        return
      }
      let choice = line.trimmingWhitespace()
      if choice.isEmpty { continue }
      let folded = NameIndex.normalized(choice)
      if ["q", "quit", "exit", NameIndex.normalized(texts.localizer.string("shop.quit"))]
        .contains(folded)
      {
        context.say(texts.string("shop.bye"))
        return
      }
      if [
        "s", "stock", NameIndex.normalized(texts.localizer.string(LocalizationKey.editStockButton)),
      ]
      .contains(folded) {
        guard try stockScreen(shop, names: names, input: &input) else { return }
        showScreen = true
        continue
      }
      let juice: Juice
      do throws(CLIError) {
        juice = try pick(choice, catalog: catalog, names: names)
      } catch {
        context.errorOutput.write(error.message(texts) + "\n")
        continue
      }
      do throws(CLIError) {
        let order = try OrderCommand.make(juice, count: 1, at: shop)
        context.say(texts.orderMessage(order))
        showScreen = true
      } catch {
        guard case .outOfStock = error else { throw error }
        context.say(error.message(texts))
        guard let wantsEdit = ask(input: &input) else {
          context.say("")
          return
        }
        if wantsEdit {
          guard try stockScreen(shop, names: names, input: &input) else { return }
        }
        showScreen = true
      }
    }
  }

  /// A juice by menu number, id or name.
  private func pick(_ choice: String, catalog: Catalog, names: NameIndex) throws(CLIError) -> Juice
  {
    if let number = Int(choice) {
      guard number >= 1, number <= catalog.juices.count else {
        throw .unknownJuice(choice)
      }
      return catalog.juices[number - 1]
    }
    return try names.juice(named: choice, in: catalog)
  }

  /// Asks the yes-or-no question after a refusal; `nil` at the end of input.
  ///
  /// It takes the word shown, and the words of `shop.answer.yes` and `shop.answer.no`
  /// in every language of the catalog.
  private func ask(input: inout some LineInput) -> Bool? {
    let yes = texts.string(LocalizationKey.yes)
    let no = texts.string(LocalizationKey.no)
    let yeses = answers(LocalizationKey.yes, "shop.answer.yes")
    let noes = answers(LocalizationKey.no, "shop.answer.no")
    while true {
      context.output.write("(\(yes)/\(no)) ")
      guard let line = input.readLine() else { return nil }
      let answer = NameIndex.normalized(line)
      if yeses.contains(answer) { return true }
      if noes.contains(answer) { return false }
    }
  }

  /// Every word of the keys in every language, folded for matching.
  private func answers(_ keys: String...) -> Set<String> {
    let strings = context.strings
    var words: Set<String> = []
    for language in strings.languages {
      let localizer = strings.localizer(for: language)
      for key in keys {
        for word in localizer.string(key).split(separator: ",") {
          words.insert(NameIndex.normalized(String(word)))
        }
      }
    }
    words.remove("")
    return words
  }

  /// Every juice with how many can be made, or the command's error when the store
  /// cannot be read.
  static func availability(_ shop: JuiceMaker) throws(CLIError) -> [MenuItem] {
    do {
      return try shop.availability()
    } catch {
      guard case .storage(let cause) = error else { return [] }
      throw CLIError(cause)
    }
  }

  private func showOrderScreen(_ shop: JuiceMaker) throws(CLIError) {
    context.say("")
    context.say(texts.string(LocalizationKey.orderScreenTitle))
    context.say(try stockBoard(shop.store))
    let menu = try Self.availability(shop)
    let names = menu.map { texts.name(of: $0.juice.id) }
    let width = names.map(\.displayWidth).max() ?? 0
    for (index, (item, name)) in zip(menu, names).enumerated() {
      let number = String(index + 1)
      context.say(
        String(repeating: " ", count: max(0, 3 - number.count)) + number + ") "
          + name.padded(to: width) + "  " + texts.string("menu.makeable", .int(item.makeable)))
    }
    context.say(
      "  s) " + texts.string(LocalizationKey.editStockButton) + "   q) "
        + texts.string("shop.quit"))
  }

  /// "딸기 10 · 바나나 9 · …".
  private func stockBoard(_ store: FruitStore) throws(CLIError) -> String {
    zip(store.fruits, try context.levels(of: store)).map { fruit, level in
      texts.name(of: fruit) + " " + String(level)
    }.joined(separator: " · ")
  }

  /// The stock screen; returns `false` at the end of input.
  private func stockScreen(_ shop: JuiceMaker, names: NameIndex, input: inout some LineInput)
    throws(CLIError) -> Bool
  {
    let store = shop.store
    var showScreen = true
    while true {
      if showScreen {
        context.say("")
        context.say(texts.string(LocalizationKey.stockScreenTitle))
        for (index, (fruit, level)) in zip(store.fruits, try context.levels(of: store)).enumerated()
        {
          context.say("  \(index + 1)) " + texts.name(of: fruit) + " " + String(level))
        }
        context.say(
          texts.string("shop.stock.help", .string(texts.string(LocalizationKey.closeButton))))
      }
      showScreen = false
      context.output.write(texts.string("shop.prompt") + " ")
      guard let line = input.readLine() else {
        context.say("")
        return false
      }
      let trimmed = line.trimmingWhitespace()
      if trimmed.isEmpty { continue }
      let folded = NameIndex.normalized(trimmed)
      if [
        "c", "close", "q",
        NameIndex.normalized(texts.localizer.string(LocalizationKey.closeButton)),
      ]
      .contains(folded) {
        return true
      }
      do throws(CLIError) {
        let (action, fruit, quantity) = try parseEdit(trimmed, store: store, names: names)
        let level = try StockCommand.edit(action, quantity, of: fruit, in: store, by: shop.name)
        context.say(
          texts.string("stock.updated", .string(texts.name(of: fruit)), .int(level.after)))
        showScreen = true
      } catch {
        if case .storeUnavailable = error { throw error }
        if case .invalidStore = error { throw error }
        context.errorOutput.write(error.message(texts) + "\n")
      }
    }
  }

  /// `+ FRUIT [N]`, `- FRUIT [N]` or `= FRUIT N`; FRUIT by number, id or name.
  private func parseEdit(_ line: String, store: FruitStore, names: NameIndex) throws(CLIError)
    -> (String, Fruit.ID, Int)
  {
    guard let sign = line.first, "+-=".contains(sign) else {
      throw .unknownCommand(line)
    }
    var words = line.dropFirst().split(separator: " ", omittingEmptySubsequences: true).map(
      String.init)
    let action = sign == "+" ? "add" : sign == "-" ? "remove" : "set"
    var quantity = 1
    if words.count >= 2, let last = words.last, last.allSatisfy({ $0.isNumber || $0 == "-" }) {
      quantity = try Quantity.parse(last, for: "N", action == "set" ? .nonNegative : .positive)
      words.removeLast()
    } else if action == "set" {
      throw .missingArgument(argument: "N", command: String(sign))
    }
    guard !words.isEmpty else { throw .missingArgument(argument: "FRUIT", command: String(sign)) }
    let name = words.joined(separator: " ")
    if let number = Int(name), number >= 1, number <= store.fruits.count {
      return (action, store.fruits[number - 1], quantity)
    }
    return (action, try names.fruit(named: name), quantity)
  }
}
