package import JuiceMakerCatalog

extension StockStorageError {
  /// Checks the fruits a storage is opened for, as every storage does before it touches
  /// its store: each fruit once, none with negative initial stock.
  ///
  /// - Parameters:
  ///   - fruits: The fruits, in level order.
  ///   - store: The store's name for the error.
  /// - Throws: `.invalid` naming the first fruit given twice or with negative initial
  ///   stock.
  package static func checkFruits(_ fruits: [Fruit], store: String) throws(StockStorageError) {
    var seen: Set<Fruit.ID> = []
    for fruit in fruits {
      let problem: String
      if !seen.insert(fruit.id).inserted {
        problem = "fruit \(fruit.id) is given twice"
      } else if fruit.initialStock < 0 {
        problem = "fruit \(fruit.id) has negative initial stock \(fruit.initialStock)"
      } else {
        continue
      }
      throw .invalid(
        store: store,
        cause: StorageFailure(code: "", message: problem, purpose: "opening the store"))
    }
  }
}
