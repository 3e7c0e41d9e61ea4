extension Pack {
  /// The body of the pack's compiled form; only a pack without problems is compiled.
  ///
  /// The currency, then each fruit (id, initial stock, limits) and each juice (id, price as
  /// written, ingredients), in written order.
  ///
  /// - Parameter capacity: Room to make at once, such as the size of the JSON it was read
  ///   from, which is larger than its compiled form: the form is not copied as it grows.
  func compiled(capacity: Int = 0) -> [UInt8] {
    var writer = CompiledWriter(capacity: capacity)
    writer.optional(currency?.code)
    writer.integer(fruitEntries.count)
    for entry in fruitEntries {
      writer.string(entry.fruit.id.rawValue)
      writer.integer(entry.fruit.initialStock)
      writer.flag(entry.fruit.limits != nil)
      if let limits = entry.fruit.limits {
        writer.integer(limits.minimum)
        writer.integer(limits.par)
      }
    }
    writer.integer(juiceEntries.count)
    for entry in juiceEntries {
      writer.string(entry.id.rawValue)
      writer.optional(entry.price?.decimalText)
      writer.integer(entry.ingredients.count)
      for ingredient in entry.ingredients {
        writer.string(ingredient.fruit.rawValue)
        writer.integer(ingredient.count)
      }
    }
    return writer.bytes
  }

  /// Reads a pack's compiled form, checking every value by the rules its JSON is checked by:
  /// ids by their own rule, currency and prices by theirs, limits as a pack resolves them,
  /// the rest by ``valueProblems()``.
  ///
  /// - Parameters:
  ///   - reader: The compiled form's body.
  ///   - file: The pack's path, as problems name it.
  /// - Throws: `Damaged` for anything that is not a sound pack.
  init(compiled reader: inout CompiledReader, file: String) throws(CompiledForm.Damaged) {
    func id<ID>(_ make: (String) throws(IdentifierError) -> ID) throws(CompiledForm.Damaged) -> ID {
      let text = try reader.string()
      do throws(IdentifierError) {
        return try make(text)
      } catch {
        throw CompiledForm.Damaged()
      }
    }
    var currency: Currency?
    if let code = try reader.optional() {
      do throws(Currency.InvalidCode) {
        currency = try Currency(code: code)
      } catch {
        throw CompiledForm.Damaged()
      }
    }
    var fruits: [Fruit] = []
    let fruitCount = try reader.count()
    fruits.reserveCapacity(fruitCount)
    for _ in 0..<fruitCount {
      let fruitID = try id(Fruit.ID.init(validating:))
      let stock = try reader.integer()
      var limits: StockLimits?
      if try reader.flag() {
        let minimum = try reader.integer()
        let par = try reader.integer()
        guard
          let resolved = StockLimits.resolving(minimum: minimum, par: par, initialStock: stock)
        else { throw CompiledForm.Damaged() }
        limits = resolved
      }
      fruits.append(Fruit(id: fruitID, initialStock: stock, limits: limits))
    }
    var juices: [(id: Juice.ID, ingredients: [Ingredient], price: Money?)] = []
    let juiceCount = try reader.count()
    juices.reserveCapacity(juiceCount)
    for _ in 0..<juiceCount {
      let juiceID = try id(Juice.ID.init(validating:))
      var price: Money?
      if let text = try reader.optional() {
        guard let currency else { throw CompiledForm.Damaged() }
        do throws(Money.ParseError) {
          price = try Money(parsing: text, currency: currency)
        } catch {
          throw CompiledForm.Damaged()
        }
      }
      let ingredientCount = try reader.count()
      var ingredients: [Ingredient] = []
      ingredients.reserveCapacity(ingredientCount)
      for _ in 0..<ingredientCount {
        let fruit = try id(Fruit.ID.init(validating:))
        ingredients.append(Ingredient(fruit: fruit, count: try reader.integer()))
      }
      juices.append((juiceID, ingredients, price))
    }
    self.init(file: file, currency: currency, fruits: fruits, juices: juices)
    guard valueProblems().isEmpty else { throw CompiledForm.Damaged() }
  }
}
