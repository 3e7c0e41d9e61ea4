import JuiceMakerKit

/// `juice-maker order JUICE [--count N]`: makes juice, all or nothing.
struct OrderCommand: Command {
  static let countOption = Option.number("count", .positive)
  static let definition = CommandDefinition(
    name: "order", options: [countOption.spec],
    arguments: [ArgumentSpec(name: "JUICE", completion: .juice)])

  let context: Context
  /// The juice as given: an id or a name.
  let juiceName: String
  /// How many to make at once.
  let count: Int

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    juiceName = line.arguments[0]
    count = try line.value(Self.countOption) ?? 1
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let catalog = try context.loadCatalog()
    let juice = try NameIndex(catalog: catalog, strings: context.strings).juice(
      named: juiceName, in: catalog)
    let store = try context.openStore(for: catalog)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    let order = try shop.serve(juice, count: count)
    let texts = context.texts
    if context.json {
      context.emit(
        OrderDocument(
          juice: juice.id.rawValue, name: texts.localizer.name(of: juice.id), count: count,
          shop: shop.name, message: texts.orderMessage(order),
          stock: Dictionary(
            uniqueKeysWithValues: zip(store.fruits.map(\.rawValue), try context.levels(of: store))))
      )
    } else {
      context.say(texts.orderMessage(order))
    }
  }
}
