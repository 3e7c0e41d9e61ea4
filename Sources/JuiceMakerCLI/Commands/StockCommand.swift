import JuiceMakerKit

/// `juice-maker stock [add|remove|set FRUIT N [--if-stock M]]`: shows or edits the stock.
struct StockCommand: Command {
  static let ifStockOption = Option.number("if-stock", .nonNegative, metavariable: "M")
  static let definition = CommandDefinition(
    name: "stock", options: [ifStockOption.spec],
    arguments: [
      ArgumentSpec(
        name: "ACTION", completion: .choices, isOptional: true,
        choices: StockAction.allCases.map(\.rawValue)),
      ArgumentSpec(name: "FRUIT", completion: .fruit),
      ArgumentSpec(name: "N"),
    ])

  /// One edit: the action, the fruit as given, and N.
  struct Edit {
    let action: StockAction
    let fruit: String
    let quantity: Int
    /// For `set`, the level the stock must have for the edit to happen.
    let expected: Int?
  }

  let context: Context
  /// The edit, or `nil` to show the stock.
  let edit: Edit?

  var changesStore: Bool { edit != nil }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    let arguments = line.arguments
    let expected = try line.value(Self.ifStockOption)
    guard let first = arguments.first else {
      if expected != nil {
        throw .optionNotApplicable(option: Self.ifStockOption.spec.spelling, command: "stock")
      }
      edit = nil
      return
    }
    guard let action = StockAction(rawValue: first), arguments.count == 3 else {
      throw .unexpectedArgument(first, command: "stock")
    }
    if expected != nil, action != .set {
      throw .optionNotApplicable(
        option: Self.ifStockOption.spec.spelling, command: "stock " + action.rawValue)
    }
    edit = Edit(
      action: action, fruit: arguments[1],
      quantity: try Quantity.parse(arguments[2], for: "N", action.rule), expected: expected)
  }

  func run(input: inout any LineInput) throws(CLIError) {
    guard let edit else {
      let catalog = try context.loadCatalog()
      let store = try context.openStore(for: catalog)
      try show(store)
      return
    }
    let catalog = try context.loadCatalog()
    let names = NameIndex(catalog: catalog, strings: context.strings)
    let fruit = try names.fruit(named: edit.fruit)
    let store = try context.openStore(for: catalog)
    let change = try edit.action.apply(
      edit.quantity, of: fruit, in: store, by: context.shopName, expecting: edit.expected)
    let level = change.after
    let texts = context.texts
    if context.json {
      context.emit(
        StockEditDocument(
          fruit: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: level,
          fruits: try Self.documents(store, texts: texts, context: context)))
    } else {
      let name = LocalizedArgument.string(texts.name(of: fruit, count: level))
      context.say(
        edit.action == .set
          ? texts.string("stock.changed", name, .int(change.before), .int(level))
          : texts.string("stock.updated", name, .int(level)))
    }
  }

  private func show(_ store: FruitStore) throws(CLIError) {
    let texts = context.texts
    if context.json {
      context.emit(StockDocument(fruits: try Self.documents(store, texts: texts, context: context)))
      return
    }
    let levels = try context.levels(of: store)
    let names = zip(store.fruits, levels).map { texts.name(of: $0, count: $1) }
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
