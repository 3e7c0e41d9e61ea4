import JuiceMakerKit
import JuiceMakerSQLite

/// The fruits and juices the tests use.
enum Fixtures {
  static let fruits = [
    Fruit(id: "strawberry", initialStock: 10),
    Fruit(id: "banana", initialStock: 10),
    Fruit(id: "kiwi", initialStock: 10),
  ]

  static func catalog(fruits: [Fruit] = fruits) throws -> Catalog {
    try Catalog(
      fruits: fruits,
      juices: [
        Juice(id: "strawberry-juice", ingredients: [Ingredient(fruit: "strawberry", count: 16)]),
        Juice(id: "banana-juice", ingredients: [Ingredient(fruit: "banana", count: 2)]),
        Juice(
          id: "strawberry-banana-juice",
          ingredients: [
            Ingredient(fruit: "strawberry", count: 10), Ingredient(fruit: "banana", count: 1),
          ]),
        Juice(id: "kiwi-juice", ingredients: [Ingredient(fruit: "kiwi", count: 3)]),
      ])
  }

  /// An order for direct `perform` calls.
  static func order(_ juice: Juice.ID, shop: String = "downtown") -> StockOperation {
    StockOperation(editor: shop, action: .order(juice, count: 1))
  }
}

extension StockStorage {
  /// Runs an operation that may touch every level.
  @discardableResult
  func perform(_ operation: StockOperation, _ body: (inout StockLevels) -> StockOutcome)
    throws(StockStorageError) -> StockReceipt
  {
    try perform(operation, touching: Array(fruits.indices), body)
  }

  /// The whole journal, newest first.
  func journal() throws(StockStorageError) -> [JournalEntry] {
    try journal(JournalQuery())
  }
}

extension JournalEntry {
  /// Each changed level's delta.
  var deltas: [Fruit.ID: Int] {
    Dictionary(uniqueKeysWithValues: changes.map { ($0.fruit, $0.after - $0.before) })
  }
}

extension StockStorageError {
  /// Whether the error is `.invalid`.
  var isInvalid: Bool {
    if case .invalid = self { return true }
    return false
  }

  /// Whether the error is `.unavailable`.
  var isUnavailable: Bool {
    if case .unavailable = self { return true }
    return false
  }

  /// The engine's message.
  var detail: String { cause.message }
}
