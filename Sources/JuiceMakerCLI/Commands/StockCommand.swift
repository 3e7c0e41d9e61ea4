import JuiceMakerKit

/// `juice-maker stock [--low] [add|remove|set FRUIT N [--if-stock M]]
/// [limits FRUIT --min N --par M]`: shows or edits the stock and its limits.
struct StockCommand: Command {
  static let ifStockOption = Option.number("if-stock", .nonNegative, metavariable: "M")
  static let minimumOption = Option.number("min", .nonNegative)
  static let parOption = Option.number("par", .nonNegative, metavariable: "M")
  static let lowFlag = Flag("low")
  /// The word of `stock limits FRUIT`.
  static let limitsWord = "limits"
  static let definition = CommandDefinition(
    name: "stock",
    options: [ifStockOption.spec, minimumOption.spec, parOption.spec, lowFlag.spec],
    arguments: [
      ArgumentSpec(
        name: "ACTION", completion: .choices, isOptional: true,
        choices: StockAction.allCases.map(\.rawValue) + [limitsWord]),
      ArgumentSpec(name: "FRUIT", completion: .fruit),
      ArgumentSpec(name: "N"),
    ],
    shorterForms: [limitsWord: 2], showsOneLanguage: true, showsJuiceNames: false, loadsMenu: true)

  /// One edit: the action, the fruit as given, and N.
  struct Edit {
    let action: StockAction
    let fruit: String
    let quantity: Int
    /// For `set`, the level the stock must have for the edit to happen.
    let expected: Int?
  }

  /// What the command does.
  enum Mode {
    /// Lists every fruit, or with `low` only those at or below their minimum.
    case show(low: Bool)
    case edit(Edit)
    /// Sets a fruit's minimum and par for this store; either may be left as it is.
    case limits(fruit: String, minimum: Int?, par: Int?)
  }

  private(set) var context: Context
  let mode: Mode

  var changesStore: Bool {
    if case .show = mode { return false }
    return true
  }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    let arguments = line.arguments
    let expected = try line.value(Self.ifStockOption)
    let minimum = try line.value(Self.minimumOption)
    let par = try line.value(Self.parOption)
    let low = line.isSet(Self.lowFlag)
    let first = arguments.first
    func refuse(_ spec: OptionSpec, unless applies: Bool, command: String) throws(CLIError) {
      if !applies { throw .optionNotApplicable(option: spec.spelling, command: command) }
    }
    let command = ["stock", first].compactMap { $0 }.joined(separator: " ")
    try refuse(Self.ifStockOption.spec, unless: expected == nil || first == "set", command: command)
    try refuse(
      Self.minimumOption.spec, unless: minimum == nil || first == Self.limitsWord,
      command: command)
    try refuse(
      Self.parOption.spec, unless: par == nil || first == Self.limitsWord, command: command)
    try refuse(Self.lowFlag.spec, unless: !low || first == nil, command: command)
    guard let first else {
      mode = .show(low: low)
      return
    }
    if first == Self.limitsWord, arguments.count == 2 {
      guard minimum != nil || par != nil else {
        throw .missingArgument(argument: "--min N, --par M", command: command)
      }
      if let minimum, let par, par < minimum {
        throw .parBelowMinimum(minimum: minimum, par: par)
      }
      mode = .limits(fruit: arguments[1], minimum: minimum, par: par)
      return
    }
    guard let action = StockAction(rawValue: first), arguments.count == 3 else {
      throw .unexpectedArgument(first, command: "stock")
    }
    mode = .edit(
      Edit(
        action: action, fruit: arguments[1],
        quantity: try Quantity.parse(arguments[2], for: "N", action.rule), expected: expected))
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try context.openShop()
    // The rest speaks with the menu's strings, the store's published catalogs included.
    var command = self
    command.context = opened.context
    try command.run(catalog: opened.menu.catalog, store: opened.store)
  }

  private func run(catalog: Catalog, store: FruitStore) throws(CLIError) {
    switch mode {
    case .show(let low):
      try show(store, catalog: catalog, lowOnly: low)
    case .edit(let edit):
      try run(edit, catalog: catalog, store: store)
    case .limits(let name, let minimum, let par):
      let fruit = try NameIndex.fruit(
        named: name, in: catalog, strings: context.stringsInEveryLanguage)
      try setLimits(of: fruit, minimum: minimum, par: par, store: store, catalog: catalog)
    }
  }

  private func run(_ edit: Edit, catalog: Catalog, store: FruitStore) throws(CLIError) {
    let fruit = try NameIndex.fruit(
      named: edit.fruit, in: catalog, strings: context.stringsInEveryLanguage)
    let change = try edit.action.apply(
      edit.quantity, of: fruit, in: store, by: context.shopName, expecting: edit.expected)
    let level = change.after
    let texts = context.texts
    if context.json {
      context.emit(
        StockEditDocument(
          fruit: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: level,
          fruits: try Self.documents(store, catalog: catalog, texts: texts, context: context)))
    } else {
      let name = LocalizedArgument.string(texts.name(of: fruit, count: level))
      context.say(
        edit.action == .set
          ? texts.string("stock.changed", name, .int(change.before), .int(level))
          : texts.string("stock.updated", name, .int(level)))
    }
  }

  /// Sets the limits, keeping the one not given (`StockLimits.resolving`).
  private func setLimits(
    of fruit: Fruit.ID, minimum: Int?, par: Int?, store: FruitStore, catalog: Catalog
  ) throws(CLIError) {
    let all = try Self.limits(store, catalog: catalog)
    let current = store.index(of: fruit).flatMap { all[$0] }
    guard
      let limits = StockLimits.resolving(
        minimum: minimum, par: par, current: current,
        initialStock: catalog.fruit(fruit)?.initialStock ?? 0)
    else {
      throw .parBelowMinimum(minimum: minimum ?? current?.minimum ?? 0, par: par ?? 0)
    }
    let (newMinimum, newPar) = (limits.minimum, limits.par)
    do {
      try store.setLimits(limits, of: fruit, by: context.shopName)
    } catch {
      throw CLIError(error)
    }
    let texts = context.texts
    if context.json {
      context.emit(
        StockLimitsDocument(
          fruit: fruit.rawValue, name: texts.localizer.name(of: fruit), min: newMinimum,
          par: newPar))
    } else {
      context.say(
        texts.string(
          "stock.limits.set", .string(texts.name(of: fruit)), .int(newMinimum), .int(newPar)))
    }
  }

  private func show(_ store: FruitStore, catalog: Catalog, lowOnly: Bool) throws(CLIError) {
    let texts = context.texts
    var documents = try Self.documents(store, catalog: catalog, texts: texts, context: context)
    if lowOnly { documents = documents.filter(\.low) }
    if context.json {
      context.emit(StockDocument(fruits: documents))
      return
    }
    if documents.isEmpty {
      context.say(texts.string("stock.low.none"))
      return
    }
    let levels = Dictionary(uniqueKeysWithValues: documents.map { ($0.id, $0.stock) })
    let names = store.fruits.compactMap { fruit in
      levels[fruit.rawValue].map { texts.name(of: fruit, count: $0) }
    }
    let width = names.map(\.displayWidth).max() ?? 0
    let levelWidth = documents.map { String($0.stock).count }.max() ?? 0
    var lines: [String] = []
    lines.reserveCapacity(documents.count)
    for (name, document) in zip(names, documents) {
      let level = String(document.stock)
      guard document.low, let minimum = document.min else {
        lines.append(name.padded(to: width) + "  " + level)
        continue
      }
      lines.append(
        name.padded(to: width) + "  " + level.padded(to: levelWidth) + "  "
          + texts.string("stock.low", .int(minimum)))
    }
    // One write for the whole table, not one for each fruit.
    context.say(lines.joined(separator: "\n"))
  }

  /// Each fruit's limits, the store's over the packs', in level order.
  static func limits(_ store: FruitStore, catalog: Catalog) throws(CLIError) -> [StockLimits?] {
    do {
      return try store.limits(over: catalog)
    } catch {
      throw CLIError(error)
    }
  }

  static func documents(
    _ store: FruitStore, catalog: Catalog, texts: Texts, context: Context
  ) throws(CLIError) -> [FruitDocument] {
    let limits = try Self.limits(store, catalog: catalog)
    return zip(zip(store.fruits, try context.levels(of: store)), limits).map { pair, limits in
      let (fruit, level) = pair
      return FruitDocument(
        id: fruit.rawValue, name: texts.localizer.name(of: fruit), stock: level,
        min: limits?.minimum, par: limits?.par, low: limits?.isLow(level) ?? false)
    }
  }
}
