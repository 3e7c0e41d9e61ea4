import JuiceMakerKit

/// `juice-maker menu`: each juice with its name, recipe, and how many can be made now.
struct MenuCommand: Command {
  static let definition = CommandDefinition(name: "menu", showsOneLanguage: true, loadsMenu: true)

  let context: Context

  init(parsing line: ParsedCommandLine, context: Context) {
    self.context = context
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try self.context.openShop()
    let (context, catalog, store) = (opened.context, opened.menu.catalog, opened.store)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    let menu = try shop.menu()
    let texts = context.texts
    if context.json {
      context.emit(
        MenuDocument(
          juices: menu.map { item in
            JuiceDocument(
              id: item.juice.id.rawValue, name: texts.localizer.name(of: item.juice.id),
              ingredients: item.juice.ingredients, makeable: item.makeable,
              price: item.juice.price.map(PriceDocument.init))
          }))
      return
    }
    let names = menu.map { texts.name(of: $0.juice.id) }
    let width = names.map(\.displayWidth).max() ?? 0
    let prices = menu.map { $0.juice.price.map(texts.price) ?? "" }
    let priceWidth = prices.map(\.displayWidth).max() ?? 0
    // A menu names the same few fruits and counts many times: each is worded once.
    var ingredients: [Ingredient: String] = [:]
    var makeable: [Int: String] = [:]
    // The whole menu in one text, written at once: no line of it is kept apart.
    var text = ""
    text.reserveCapacity(menu.count * (width + priceWidth + 48))
    for ((item, name), price) in zip(zip(menu, names), prices) {
      // Prices right-aligned, so their digits line up.
      let priceColumn =
        priceWidth == 0
        ? "" : String(repeating: " ", count: priceWidth - price.displayWidth) + price + "  "
      let recipe = texts.localizer.list(
        item.juice.ingredients.map { ingredient in
          if let worded = ingredients[ingredient] { return worded }
          let worded = Self.ingredient(ingredient, texts: texts)
          ingredients[ingredient] = worded
          return worded
        })
      let count: String
      if let worded = makeable[item.makeable] {
        count = worded
      } else {
        count = texts.string("menu.makeable", .int(item.makeable))
        makeable[item.makeable] = count
      }
      if !text.isEmpty { text += "\n" }
      text += name.padded(to: width)
      text += "  "
      text += priceColumn
      text += recipe
      text += "  "
      text += count
    }
    if !text.isEmpty { context.say(text) }
  }

  /// "딸기 10, 바나나 1".
  static func recipe(_ juice: Juice, texts: Texts) -> String {
    texts.localizer.list(juice.ingredients.map { ingredient($0, texts: texts) })
  }

  /// One line of a recipe, such as `kiwis 3`.
  static func ingredient(_ ingredient: Ingredient, texts: Texts) -> String {
    texts.string(
      "menu.ingredient", .string(texts.name(of: ingredient.fruit, count: ingredient.count)),
      .int(ingredient.count))
  }
}
