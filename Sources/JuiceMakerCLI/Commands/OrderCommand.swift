import JuiceMakerKit

/// `juice-maker order JUICE [--count N] [--request-id ID]`: makes juice, all or nothing,
/// once per request id.
struct OrderCommand {
  let context: Context

  func run() throws(CLIError) {
    let given = try context.arguments(["JUICE"], command: "order")
    let count =
      try context.invocation["count"].map { text throws(CLIError) in
        try Quantity.parse(text, for: "--count", .positive)
      } ?? 1
    let requestID = try context.invocation["request-id"].map { text throws(CLIError) in
      do {
        return try RequestID(validating: text)
      } catch {
        throw .invalidRequestID(text)
      }
    }
    let catalog = try context.loadCatalog()
    let juice = try NameIndex(catalog: catalog, strings: context.strings).juice(
      named: given[0], in: catalog)
    let store = try context.openStore(for: catalog)
    let shop = JuiceMaker(name: context.shopName, catalog: catalog, store: store)
    let order = try Self.make(juice, count: count, at: shop, requestID: requestID)
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

  /// Makes juice, turning the shop's refusal into the command's.
  static func make(_ juice: Juice, count: Int, at shop: JuiceMaker, requestID: RequestID? = nil)
    throws(CLIError) -> Order
  {
    do throws(JuiceMakerError) {
      return try shop.make(juice, count: count, requestID: requestID)
    } catch {
      throw Self.error(for: error)
    }
  }

  /// The command's error for a shop's.
  static func error(for error: JuiceMakerError) -> CLIError {
    switch error {
    case .outOfStock(let shortages): .outOfStock(shortages)
    case .unknownJuice(let id): .unknownJuice(id.rawValue)
    case .unknownFruit(let id): .unknownFruit(id.rawValue)
    case .invalidCount(let count): .tooLarge(value: String(count), option: "--count")
    case .overflow(let fruit, let stock, let amount):
      .overflow(fruit: fruit, stock: stock, amount: amount)
    case .stockChanged(let fruit, let expected, let actual):
      .stockChanged(fruit: fruit, expected: expected, actual: actual)
    case .storage(let storageError): CLIError(storageError)
    }
  }
}
