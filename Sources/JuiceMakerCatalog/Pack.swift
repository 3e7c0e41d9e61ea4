/// The contents of one pack file, as written, before packs are merged.
struct Pack: Sendable {
  /// A fruit and the JSON path it was defined at.
  struct FruitEntry: Sendable {
    let fruit: Fruit
    /// Where the fruit is in the pack's `fruits`.
    let index: Int
    /// Whether the entry has no problem of its own; one with a problem is kept only so that
    /// merging can report what it alone finds, such as an id defined twice.
    var isValid = true

    /// The JSON path the fruit was defined at, made only for a problem's message.
    var path: String { Pack.entryPath("fruits", index) }
  }

  /// A juice and the JSON path it was defined at, with where each ingredient was.
  struct JuiceEntry: Sendable {
    let id: Juice.ID
    let ingredients: [Ingredient]
    /// The index of each ingredient in the juice's `ingredients` array as written; empty
    /// when each is where it is in ``ingredients``, as in every pack without a problem, so
    /// that a large menu holds no second array for each juice.
    let ingredientIndices: [Int]
    /// Where the juice is in the pack's `juices`.
    let index: Int
    /// Whether the entry has no problem of its own; one with a problem is kept only so that
    /// merging can report what it alone finds, such as an unknown fruit.
    var isValid = true
    /// The price in the pack's currency, once the pack's currency is known.
    var price: Money? = nil

    /// The JSON path the juice was defined at, made only for a problem's message.
    var path: String { Pack.entryPath("juices", index) }

    /// The JSON path of the `k`th ingredient, made only for a problem's message.
    func ingredientPath(_ k: Int) -> String {
      "\(path).ingredients[\(ingredientIndices.isEmpty ? k : ingredientIndices[k])]"
    }
  }

  /// The file the pack came from, as problems name it.
  let file: String
  /// The pack's `currency`, which every price of the pack is in.
  var currency: Currency? = nil
  /// Every fruit whose id is valid, in written order.
  var fruitEntries: [FruitEntry] = []
  /// Every juice whose id is valid, in written order.
  var juiceEntries: [JuiceEntry] = []

  /// The fruits without a problem of their own.
  var fruits: [FruitEntry] { fruitEntries.filter(\.isValid) }
  /// The juices without a problem of their own.
  var juices: [JuiceEntry] { juiceEntries.filter(\.isValid) }
}

/// Turns a parsed JSON document into a `Pack`, collecting every problem.
struct PackDecoder {
  /// The most problems listed for one file; the rest are counted.
  static let maximumProblems = 100

  /// The keys each kind of object takes, those it must have first, compared as UTF-8: a key
  /// is made a `String`, and a path made at all, only for a problem's message, for a large
  /// pack has tens of thousands of members.
  private static let packKeys: [StaticString] = ["currency", "fruits", "juices"]
  private static let fruitKeys: [StaticString] = ["id", "stock", "min", "par"]
  private static let juiceKeys: [StaticString] = ["id", "ingredients", "price"]
  private static let ingredientKeys: [StaticString] = ["fruit", "count"]

  private let file: String
  private var problems: [CatalogError.Problem] = []
  private var unlistedProblems = 0

  private init(file: String) {
    self.file = file
  }

  /// Decodes a pack file's bytes.
  ///
  /// - Parameters:
  ///   - data: The file's contents.
  ///   - file: The file's path, as problems name it.
  /// - Returns: The entries of the pack, and every problem found. An entry with a problem is
  ///   kept when its id is valid, so merging can still report what it alone finds (an id
  ///   defined twice, an unknown fruit); a pack with any problem never loads.
  static func decode(_ data: [UInt8], file: String) -> (Pack, [CatalogError.Problem]) {
    var decoder = PackDecoder(file: file)
    let root: JSONNode
    do {
      root = try JSONParser.parse(data)
    } catch {
      let reason = CatalogError.Reason.malformedJSON(
        detail: error.reason, line: error.line, column: error.column)
      return (Pack(file: file), [CatalogError.Problem(file: file, path: "", reason: reason)])
    }
    let pack = decoder.decodePack(root)
    if decoder.unlistedProblems > 0 {
      decoder.problems.append(
        CatalogError.Problem(
          file: file, path: "", reason: .moreProblems(count: decoder.unlistedProblems)))
    }
    return (pack, decoder.problems)
  }

  private mutating func report(_ path: @autoclosure () -> String, _ reason: CatalogError.Reason) {
    guard problems.count < Self.maximumProblems else {
      unlistedProblems += 1
      return
    }
    problems.append(CatalogError.Problem(file: file, path: path(), reason: reason))
  }

  private mutating func decodePack(_ root: JSONNode) -> Pack {
    var pack = Pack(file: file)
    guard let members = object(root, at: "", allowed: Self.packKeys) else {
      return pack
    }
    var currencyGiven = false
    for member in members where member.key == "currency" {
      currencyGiven = true
      guard case .string(let code) = member.node.value else {
        report(
          "currency", .wrongType(expected: "a currency code", found: member.node.value.kindName))
        continue
      }
      do {
        pack.currency = try Currency(code: code)
      } catch {
        report("currency", .invalidCurrency(code))
      }
    }
    var prices: [(index: Int, text: String, path: String)] = []
    for member in members where member.key != "currency" {
      guard let elements = array(member.node, at: member.key) else { continue }
      for (index, element) in elements.enumerated() {
        let before = problems.count + unlistedProblems
        if member.key == "fruits" {
          if var entry = decodeFruit(element, index: index) {
            entry.isValid = problems.count + unlistedProblems == before
            pack.fruitEntries.append(entry)
          }
        } else if let (decoded, price) = decodeJuice(element, index: index) {
          var entry = decoded
          entry.isValid = problems.count + unlistedProblems == before
          if let price { prices.append((pack.juiceEntries.count, price.text, price.path)) }
          pack.juiceEntries.append(entry)
        }
      }
    }
    for price in prices {
      guard let currency = pack.currency else {
        // A currency that is there but invalid was reported already.
        if !currencyGiven { report(price.path, .priceWithoutCurrency) }
        continue
      }
      do {
        pack.juiceEntries[price.index].price = try Money(parsing: price.text, currency: currency)
      } catch {
        report(price.path, .invalidPrice(price.text, currency: currency.code, reason: error))
      }
    }
    return pack
  }

  private mutating func decodeFruit(_ node: JSONNode, index: Int) -> Pack.FruitEntry? {
    func path() -> String { Pack.entryPath("fruits", index) }
    guard
      let members = object(node, at: path(), allowed: Self.fruitKeys, required: 1)
    else {
      return nil
    }
    var id: Fruit.ID?
    var stock = Fruit.defaultInitialStock
    var minimum: Int?
    var par: Int?
    for position in members.indices {
      let key = members.key(at: position, in: Self.fruitKeys)
      let value = members.node(at: position)
      func memberPath() -> String { "\(path()).\(members[position].key)" }
      if key == 0 {
        id = identifier(value, at: memberPath(), Fruit.ID.init(validating:))
      } else if let number = integer(value, at: memberPath()) {
        if number < 0 {
          report(memberPath(), key == 1 ? .negativeStock(number) : .negativeLimit(number))
        } else if key == 1 {
          stock = number
        } else if key == 2 {
          minimum = number
        } else {
          par = number
        }
      }
    }
    if let minimum, let par, par < minimum {
      report("\(path()).par", .parBelowMinimum(minimum: minimum, par: par))
    }
    guard let id else { return nil }
    let limits = StockLimits.resolving(minimum: minimum, par: par, initialStock: stock)
    return Pack.FruitEntry(fruit: Fruit(id: id, initialStock: stock, limits: limits), index: index)
  }

  /// A juice, and its price as written with its path, checked once the pack's currency
  /// is known.
  private mutating func decodeJuice(_ node: JSONNode, index: Int)
    -> (Pack.JuiceEntry, (text: String, path: String)?)?
  {
    func path() -> String { Pack.entryPath("juices", index) }
    guard
      let members = object(node, at: path(), allowed: Self.juiceKeys, required: 2)
    else {
      return nil
    }
    var id: Juice.ID?
    var price: (text: String, path: String)?
    var ingredients: [Ingredient] = []
    var ingredientIndices: [Int] = []
    for position in members.indices {
      let key = members.key(at: position, in: Self.juiceKeys)
      let value = members.node(at: position)
      func memberPath() -> String { "\(path()).\(members[position].key)" }
      if key == 0 {
        id = identifier(value, at: memberPath(), Juice.ID.init(validating:))
        continue
      }
      if key == 2 {
        // A string, so the decimal is read exactly: a JSON number is a float to most
        // writers, and 4.10 would not survive every one of them.
        guard case .string(let text) = value.value else {
          report(
            memberPath(),
            .wrongType(expected: "a price as a string", found: value.value.kindName))
          continue
        }
        price = (text, memberPath())
        continue
      }
      guard let elements = array(value, at: memberPath()) else { continue }
      if elements.isEmpty {
        report(memberPath(), .emptyRecipe)
      }
      for (index, element) in elements.enumerated() {
        func ingredientPath() -> String { "\(memberPath())[\(index)]" }
        guard let ingredient = decodeIngredient(element, at: ingredientPath()) else { continue }
        if ingredients.contains(where: { $0.fruit == ingredient.fruit }) {
          report("\(ingredientPath()).fruit", .repeatedIngredient(ingredient.fruit))
        }
        ingredients.append(ingredient)
        ingredientIndices.append(index)
      }
    }
    guard let id else { return nil }
    return (
      Pack.JuiceEntry(
        id: id, ingredients: ingredients,
        ingredientIndices: ingredientIndices.elementsEqual(ingredients.indices)
          ? [] : ingredientIndices, index: index),
      price
    )
  }

  private mutating func decodeIngredient(_ node: JSONNode, at path: @autoclosure () -> String)
    -> Ingredient?
  {
    guard
      let members = object(node, at: path(), allowed: Self.ingredientKeys, required: 2)
    else {
      return nil
    }
    var fruit: Fruit.ID?
    // A count with a problem still leaves the fruit to check against the other packs.
    var count = 1
    for position in members.indices {
      let value = members.node(at: position)
      func memberPath() -> String { "\(path()).\(members[position].key)" }
      if members.key(at: position, in: Self.ingredientKeys) == 0 {
        fruit = identifier(value, at: memberPath(), Fruit.ID.init(validating:))
      } else if let number = integer(value, at: memberPath()) {
        if number <= 0 {
          report(memberPath(), .nonPositiveCount(number))
        } else {
          count = number
        }
      }
    }
    guard let fruit else { return nil }
    return Ingredient(fruit: fruit, count: count)
  }

  // MARK: - Typed accessors that report problems

  /// The members of an object whose keys are all among `allowed` and which has the first
  /// `required` of them; the other members are reported and left out.
  private mutating func object(
    _ node: JSONNode, at path: @autoclosure () -> String, allowed: [StaticString],
    required: Int = 0
  ) -> JSONObject? {
    guard let members = node.objectMembers else {
      report(path(), .wrongType(expected: "an object", found: node.value.kindName))
      return nil
    }
    // One look at each key, for the few keys each kind of object takes.
    var hasUnknown = false
    var found = 0
    for position in members.indices {
      if let index = members.key(at: position, in: allowed) {
        found |= 1 << index
      } else {
        hasUnknown = true
      }
    }
    let all = (1 << required) - 1
    if !hasUnknown && found & all == all { return members }
    var known: [Bool] = []
    for position in members.indices {
      known.append(members.key(at: position, in: allowed) != nil)
      if !known[position] {
        let key = members[position].key
        let path = path()
        report(path.isEmpty ? key : "\(path).\(key)", .unknownKey(key))
      }
    }
    for index in 0..<required where found & 1 << index == 0 {
      report(path(), .missingKey("\(allowed[index])"))
    }
    return hasUnknown ? members.keeping { known[$0] } : members
  }

  private mutating func array(_ node: JSONNode, at path: @autoclosure () -> String)
    -> JSONArray?
  {
    guard let elements = node.arrayElements else {
      report(path(), .wrongType(expected: "an array", found: node.value.kindName))
      return nil
    }
    return elements
  }

  /// An id, checked by the id type's own rule.
  private mutating func identifier<ID>(
    _ node: JSONNode, at path: @autoclosure () -> String,
    _ make: (String) throws(IdentifierError) -> ID
  ) -> ID? {
    guard case .string(let text) = node.value else {
      report(path(), .wrongType(expected: "a string id", found: node.value.kindName))
      return nil
    }
    do {
      return try make(text)
    } catch {
      report(path(), .invalidID(text))
      return nil
    }
  }

  private mutating func integer(_ node: JSONNode, at path: @autoclosure () -> String) -> Int? {
    guard case .number(let text) = node.value else {
      report(path(), .wrongType(expected: "a whole number", found: node.value.kindName))
      return nil
    }
    if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
      report(path(), .notWholeNumber(text))
      return nil
    }
    guard let value = Int(text) else {
      report(path(), .numberOutOfRange(text))
      return nil
    }
    return value
  }
}
