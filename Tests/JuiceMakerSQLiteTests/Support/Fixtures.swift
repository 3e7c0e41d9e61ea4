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

  /// An operation description for direct `perform` calls.
  static func order(_ juice: String, shop: String = "downtown") -> StockOperation {
    StockOperation(kind: .order, shop: shop, subject: juice, count: 1)
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

  /// The error's detail text.
  var detail: String {
    switch self {
    case .invalid(_, let detail), .unavailable(_, let detail): detail
    }
  }
}
