import JuiceMakerKit

/// `juice-maker stock [add|remove|set FRUIT N [--if-stock M]]`: shows or edits the stock.
struct StockCommand {
  let context: Context

  func run() throws(CLIError) {
    let arguments = context.invocation.arguments
    guard let action = arguments.first else {
      let catalog = try context.loadCatalog()
      let store = try context.openStore(for: catalog)
      try show(store)
      return
    }
    guard ["add", "remove", "set"].contains(action) else {
      throw .unexpectedArgument(action, command: "stock")
    }
    let given = try context.arguments([action, "FRUIT", "N"], command: "stock " + action)
    let quantity = try Quantity.parse(
      given[2], for: "N", action == "set" ? .nonNegative : .positive)
    let expected = try context.invocation["if-stock"].map { text throws(CLIError) in
      guard action == "set" else {
        throw CLIError.optionNotApplicable(option: "--if-stock", command: "stock " + action)
      }
      return try Quantity.parse(text, for: "--if-stock", .nonNegative)
    }
    let catalog = try context.loadCatalog()
    let names = NameIndex(catalog: catalog, strings: context.strings)
    let fruit = try names.fruit(named: given[1])
    let store = try context.openStore(for: catalog)
    let change = try Self.edit(
      action, quantity, of: fruit, in: store, by: context.shopName, expecting: expected)
    let level = change.after
    let texts = context.texts
    if context.json {
      context.emit(
        StockEditDocument(
          fruit: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: level,
          fruits: try Self.documents(store, texts: texts, context: context)))
    } else {
      context.say(
        action == "set"
          ? texts.string(
            "stock.changed", .string(texts.name(of: fruit)), .int(change.before), .int(level))
          : texts.string("stock.updated", .string(texts.name(of: fruit)), .int(level)))
    }
  }

  /// Applies one edit and returns the level before and after it; a set with
  /// `expecting` is refused when the level is not the expected one.
  static func edit(
    _ action: String, _ quantity: Int, of fruit: Fruit.ID, in store: FruitStore, by editor: String,
    expecting expected: Int? = nil
  ) throws(CLIError) -> StockChange.Level {
    do throws(FruitStoreError) {
      switch action {
      case "add":
        let after = try store.add(quantity, of: fruit, by: editor)
        return StockChange.Level(fruit: fruit, before: after - quantity, after: after)
      case "remove":
        let after = try store.remove(quantity, of: fruit, by: editor)
        return StockChange.Level(fruit: fruit, before: after + quantity, after: after)
      default:
        return try store.setStock(quantity, of: fruit, by: editor, expecting: expected)
      }
    } catch {
      throw CLIError(error)
    }
  }

  private func show(_ store: FruitStore) throws(CLIError) {
    let texts = context.texts
    if context.json {
      context.emit(StockDocument(fruits: try Self.documents(store, texts: texts, context: context)))
      return
    }
    let levels = try context.levels(of: store)
    let names = store.fruits.map { texts.name(of: $0) }
    let width = names.map(\.displayWidth).max() ?? 0
    for (name, level) in zip(names, levels) {
      context.say(name.padded(to: width) + "  " + String(level))
    }
  }

  static func documents(_ store: FruitStore, texts: Texts, context: Context) throws(CLIError)
    -> [FruitDocument]
  {
    zip(store.fruits, try context.levels(of: store)).map { fruit, level in
      FruitDocument(id: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: level)
    }
  }
}
