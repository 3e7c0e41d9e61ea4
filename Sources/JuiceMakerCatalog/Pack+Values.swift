extension Pack {
  /// A pack of values rather than of a file's JSON: each fruit at `fruits[i]` and each juice
  /// at `juices[i]`, every ingredient where it is in its recipe.
  ///
  /// Check it with ``valueProblems()``: the JSON decoder checks the same rules as it reads.
  init(
    file: String, currency: Currency?, fruits: [Fruit],
    juices: [(id: Juice.ID, ingredients: [Ingredient], price: Money?)]
  ) {
    self.init(file: file)
    self.currency = currency
    fruitEntries = fruits.enumerated().map { index, fruit in
      FruitEntry(fruit: fruit, index: index)
    }
    juiceEntries = juices.enumerated().map { index, juice in
      JuiceEntry(
        id: juice.id, ingredients: juice.ingredients,
        ingredientIndices: [], index: index, price: juice.price)
    }
  }

  /// The JSON path of the `index`th member of a pack's `fruits` or `juices`.
  static func entryPath(_ section: String, _ index: Int) -> String {
    section + "[" + String(index) + "]"
  }

  /// The problems of a pack of values: a negative stock, an empty recipe, a count that is
  /// not positive, a fruit twice in one recipe, a price in another currency than the pack's.
  func valueProblems() -> [CatalogError.Problem] {
    var problems: [CatalogError.Problem] = []
    for entry in fruitEntries where entry.fruit.initialStock < 0 {
      problems.append(
        .init(
          file: file, path: "\(entry.path).stock",
          reason: .negativeStock(entry.fruit.initialStock)))
    }
    for entry in juiceEntries {
      if entry.ingredients.isEmpty {
        problems.append(.init(file: file, path: "\(entry.path).ingredients", reason: .emptyRecipe))
      }
      // A recipe has a few ingredients: each is compared with those before it, which costs
      // less than hashing them; a long one is hashed.
      let ingredients = entry.ingredients
      var seen: Set<Fruit.ID> = []
      for (position, ingredient) in ingredients.enumerated() {
        if ingredient.count <= 0 {
          problems.append(
            .init(
              file: file, path: "\(entry.ingredientPath(position)).count",
              reason: .nonPositiveCount(ingredient.count)))
        }
        let repeated =
          ingredients.count <= 16
          ? ingredients[..<position].contains { $0.fruit == ingredient.fruit }
          : !seen.insert(ingredient.fruit).inserted
        if repeated {
          problems.append(
            .init(
              file: file, path: "\(entry.ingredientPath(position)).fruit",
              reason: .repeatedIngredient(ingredient.fruit)))
        }
      }
      if let price = entry.price, let currency, price.currency != currency {
        problems.append(
          .init(
            file: file, path: "\(entry.path).price",
            reason: .currencyConflict(price.currency.code, first: currency.code, firstFile: file)))
      }
    }
    return problems
  }
}
