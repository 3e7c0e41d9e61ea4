import JuiceMakerKit

/// `juice-maker stock [add|remove|set FRUIT N]`: shows or edits the stock.
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
    let catalog = try context.loadCatalog()
    let names = NameIndex(catalog: catalog, strings: context.strings)
    let fruit = try names.fruit(named: given[1])
    let store = try context.openStore(for: catalog)
    let level = try Self.edit(action, quantity, of: fruit, in: store, by: context.shopName)
    let texts = context.texts
    if context.json {
      context.emit(
        StockEditDocument(
          fruit: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: level,
          fruits: try Self.documents(store, texts: texts, context: context)))
    } else {
      context.say(texts.string("stock.updated", .string(texts.name(of: fruit)), .int(level)))
    }
  }

  /// Applies one edit and returns the new level.
  static func edit(
    _ action: String, _ quantity: Int, of fruit: Fruit.ID, in store: FruitStore, by editor: String
  ) throws(CLIError) -> Int {
    do throws(FruitStoreError) {
      switch action {
      case "add": return try store.add(quantity, of: fruit, by: editor)
      case "remove": return try store.remove(quantity, of: fruit, by: editor)
      default: return try store.setStock(quantity, of: fruit, by: editor).after
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
