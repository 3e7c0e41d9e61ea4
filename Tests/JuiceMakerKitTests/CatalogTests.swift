import Foundation
import JuiceMakerKit
import Testing

struct CatalogTests {
  static let shipped: [(Juice.ID, [Ingredient])] = [
    ("strawberry-juice", [Ingredient(fruit: "strawberry", count: 16)]),
    ("banana-juice", [Ingredient(fruit: "banana", count: 2)]),
    ("kiwi-juice", [Ingredient(fruit: "kiwi", count: 3)]),
    ("pineapple-juice", [Ingredient(fruit: "pineapple", count: 2)]),
    (
      "strawberry-banana-juice",
      [Ingredient(fruit: "strawberry", count: 10), Ingredient(fruit: "banana", count: 1)]
    ),
    ("mango-juice", [Ingredient(fruit: "mango", count: 3)]),
    (
      "mango-kiwi-juice",
      [Ingredient(fruit: "mango", count: 2), Ingredient(fruit: "kiwi", count: 1)]
    ),
  ]

  @Test func shippedFruitsStartAtTenEach() throws {
    let catalog = try Catalog.load(from: Paths.recipes)
    #expect(catalog.fruits.map(\.id) == ["strawberry", "banana", "pineapple", "kiwi", "mango"])
    #expect(catalog.fruits.allSatisfy { $0.initialStock == 10 })
  }

  @Test func shippedJuicesKeepMenuOrder() throws {
    let catalog = try Catalog.load(from: Paths.recipes)
    #expect(catalog.juices.map(\.id) == Self.shipped.map(\.0))
  }

  @Test(arguments: shipped)
  func shippedRecipeMatchesTheOriginalApp(juice: Juice.ID, ingredients: [Ingredient]) throws {
    let catalog = try Catalog.load(from: Paths.recipes)
    let loaded = try #require(catalog.juice(juice))
    #expect(loaded.ingredients == ingredients)
  }

  @Test func idDescriptionIsTheRawID() throws {
    #expect(Fruit.ID("kiwi").description == "kiwi")
    #expect(Juice.ID("mango-juice").description == "mango-juice")
  }

  @Test func droppingAPackIntoACopyAddsItsMenu() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in ["fruits.json", "juices.json"] {
      try FileManager.default.copyItem(
        at: Paths.recipes.appendingPathComponent(name), to: directory.appendingPathComponent(name))
    }
    let pack = #"""
      {"fruits": [{"id": "watermelon", "stock": 3}],
       "juices": [{"id": "watermelon-kiwi-juice",
                   "ingredients": [{"fruit": "watermelon", "count": 1}, {"fruit": "kiwi", "count": 2}]}]}
      """#
    try Data(pack.utf8).write(to: directory.appendingPathComponent("tropical.json"))

    let catalog = try Catalog.load(from: directory)
    #expect(catalog.fruits.last == Fruit(id: "watermelon", initialStock: 3))
    #expect(catalog.juices.count == 8)
    let maker = JuiceMaker(catalog: catalog, store: FruitStore(catalog: catalog))
    try maker.make("watermelon-kiwi-juice")
    #expect(try maker.store.stock(of: "watermelon") == 2)
    #expect(try maker.store.stock(of: "kiwi") == 8)
  }

  @Test func packsMergeInFileNameOrderAndAcceptAByteOrderMark() throws {
    let catalog = try Catalog.load(from: Paths.packs("shopping-list"))
    #expect(catalog.fruits.map(\.id) == ["watermelon", "lemon", "lime"])
    #expect(catalog.fruit("lemon")?.initialStock == 10)
    #expect(
      catalog.juice("watermelon-lemonade")?.ingredients.map(\.fruit) == ["lemon", "watermelon"])
  }

  /// Each broken fixture and lines its error must hold, as `path: reason` fragments.
  static let broken: [(String, [String])] = [
    (
      "unknown-key",
      [
        "pack.json: juices[0].ingridients: unknown key \"ingridients\"",
        "pack.json: juices[0]: missing key \"ingredients\"",
      ]
    ),
    (
      "missing-keys",
      [
        "pack.json: fruits[0]: missing key \"id\"",
        "pack.json: juices[0]: missing key \"ingredients\"",
        "pack.json: juices[1]: missing key \"id\"",
        "pack.json: juices[1].ingredients[0]: missing key \"count\"",
      ]
    ),
    (
      "wrong-types",
      [
        "pack.json: fruits[0].stock: expected a whole number, found a string",
        "pack.json: fruits[1].id: expected a string id, found the number 7",
        "pack.json: juices: expected an array, found an object",
      ]
    ),
    (
      "bad-ids",
      [
        "fruits[0].id: invalid id \"Apple\"", "fruits[1].id: invalid id \"9lives\"",
        "fruits[2].id: invalid id \"red apple\"", "fruits[3].id: invalid id \"\"",
        "fruits[4].id: invalid id \"사과\"",
      ]
    ),
    (
      "duplicate-ids",
      [
        "b.json: fruits[0].id: fruit \"apple\" is already defined at",
        "b.json: juices[0].id: juice \"apple-juice\" is already defined at",
        "a.json: juices[0]",
      ]
    ),
    ("unknown-fruit", ["pack.json: juices[0].ingredients[1].fruit: unknown fruit \"pear\""]),
    (
      "every-kind-in-one-pack",
      [
        "b.json: colour: unknown key \"colour\"",
        "b.json: fruits[0].stock: stock must not be negative, found -1",
        "b.json: fruits[0].id: fruit \"apple\" is already defined at",
        "b.json: juices[0].id: juice \"apple-juice\" is already defined at",
        "b.json: juices[0].ingredients[0].fruit: unknown fruit \"grape\"",
        "b.json: juices[1].ingredients[0].count: count must be at least 1, found 0",
        "b.json: juices[1].ingredients[0].fruit: unknown fruit \"pear\"",
        "b.json: juices[1].ingredients[2].fruit: fruit \"apple\" appears twice",
        "b.json: juices[2].ingredients: a juice needs at least one ingredient",
      ]
    ),
    ("repeated-ingredient", ["juices[0].ingredients[1].fruit: fruit \"apple\" appears twice"]),
    (
      "bad-numbers",
      [
        "fruits[0].stock: stock must not be negative, found -1",
        "fruits[1].stock: 1.5 is not a whole number",
        "fruits[2].stock: 9223372036854775808 is too large",
        "fruits[3].stock: 1e400 is not a whole number",
        "juices[0].ingredients[0].count: count must be at least 1, found 0",
        "juices[1].ingredients[0].count: count must be at least 1, found -2",
      ]
    ),
    ("empty-recipe", ["juices[0].ingredients: a juice needs at least one ingredient"]),
    (
      "malformed",
      [
        "a.json: malformed JSON at line 2, column 17",
        "b.json: malformed JSON at line 1, column 110: the key \"id\" appears twice",
      ]
    ),
    ("not-an-object", ["pack.json: expected an object, found an array"]),
    ("no-packs", ["no-packs: the recipes directory holds no *.json pack"]),
    ("does-not-exist", ["does-not-exist: the recipes directory does not exist"]),
  ]

  @Test(arguments: broken)
  func brokenPacksReportEveryProblem(fixture: String, expected: [String]) throws {
    let error = try #require(throws: CatalogError.self) {
      try Catalog.load(from: Paths.packs(fixture))
    }
    let lines = error.description.split(separator: "\n").map(String.init)
    #expect(lines.count == error.problems.count)
    for fragment in expected {
      #expect(lines.contains { $0.contains(fragment) }, "missing \(fragment) in:\n\(error)")
    }
  }

  @Test func problemsNameTheFileAndPath() throws {
    let error = try #require(throws: CatalogError.self) {
      try Catalog.load(from: Paths.packs("unknown-fruit"))
    }
    let problem = try #require(error.problems.first)
    #expect(problem.file.hasSuffix("unknown-fruit/pack.json"))
    #expect(problem.path == "juices[0].ingredients[1].fruit")
    #expect(problem.reason == .unknownFruit("pear"))
  }

  @Test func catalogBuiltFromValuesIsCheckedLikeAPack() throws {
    #expect(throws: CatalogError.self) {
      try Catalog(
        fruits: [Fruit(id: "apple")],
        juices: [Juice(id: "pear-juice", ingredients: [Ingredient(fruit: "pear", count: 1)])])
    }
  }

  @Test(arguments: [
    "{", "{\"fruits\": [}", "\"\\u12\"", "[1,]", "{\"a\" 1}", "01", "-", "1.", "1e", "tru",
    "{\"fruits\": [{\"id\": \"a\u{01}\"}]}", "\"\\x\"", "\"\\uD800\"", "{} {}", "",
  ])
  func malformedDocumentsFailWithAPlace(text: String) throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(text.utf8).write(to: directory.appendingPathComponent("pack.json"))
    let error = try #require(throws: CatalogError.self) { try Catalog.load(from: directory) }
    guard case .malformedJSON(_, let line, let column) = error.problems.first?.reason else {
      Issue.record("expected malformed JSON, got \(error)")
      return
    }
    #expect(line >= 1 && column >= 1)
  }

  @Test func deepNestingIsRejectedNotRecursedInto() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
    try Data(text.utf8).write(to: directory.appendingPathComponent("deep.json"))
    let error = try #require(throws: CatalogError.self) { try Catalog.load(from: directory) }
    #expect(error.description.contains("nested more than"))
  }

  @Test func packsInMemoryAreDecodedAsStrictlyAsFiles() throws {
    let fruits = PackSource.bytes(
      Array(#"{"fruits": [{"id": "kiwi"}]}"#.utf8), name: "<built-in>/Recipes/fruits.json")
    let juices = PackSource.bytes(
      Array(#"{"juices": [{"id": "kiwi-juice", "ingridients": []}]}"#.utf8),
      name: "<built-in>/Recipes/juices.json")
    #expect(try Catalog.load([fruits]).fruits.map(\.id) == ["kiwi"])
    let error = try #require(throws: CatalogError.self) { try Catalog.load([fruits, juices]) }
    #expect(error.problems.allSatisfy { $0.file == "<built-in>/Recipes/juices.json" })
    #expect(error.description.contains("ingridients"))
  }

  @Test func invalidUTF8IsReported() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bytes: [UInt8] = Array(#"{"fruits": [{"id": ""#.utf8) + [0xFF, 0xFE] + Array(#""}]}"#.utf8)
    try Data(bytes).write(to: directory.appendingPathComponent("pack.json"))
    let error = try #require(throws: CatalogError.self) { try Catalog.load(from: directory) }
    #expect(error.description.contains("not valid UTF-8"))
  }

  @Test func aDirectoryNamedLikeAPackIsReported() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("x.json"), withIntermediateDirectories: false)
    let error = try #require(throws: CatalogError.self) { try Catalog.load(from: directory) }
    #expect(error.problems.map(\.reason) == [.notAFile])
  }

  @Test func manyPackFilesLoadInNameOrder() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(#"{"fruits": [{"id": "apple"}]}"#.utf8).write(
      to: directory.appendingPathComponent("000.json"))
    for index in 1...200 {
      let pack =
        #"{"juices": [{"id": "j\#(index)", "ingredients": [{"fruit": "apple", "count": 1}]}]}"#
      try Data(pack.utf8).write(
        to: directory.appendingPathComponent(String(format: "%03d.json", index)))
    }
    let catalog = try Catalog.load(from: directory)
    #expect(catalog.juices.map(\.id.rawValue) == (1...200).map { "j\($0)" })
  }
}
