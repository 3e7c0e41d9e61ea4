import JuiceMakerKit
import Testing

struct JuiceMakerTests {
  let catalog = FruitStoreTests.catalog

  func shop(_ name: String = "main", store: FruitStore? = nil) -> JuiceMaker {
    JuiceMaker(name: name, catalog: catalog, store: store ?? FruitStore(catalog: catalog))
  }

  @Test func strawberryBananaJuiceTakesTenStrawberriesAndOneBanana() throws {
    let maker = shop()
    let order = try maker.make("strawberry-banana-juice")
    #expect(order == Order(juice: "strawberry-banana-juice", count: 1))
    #expect(try maker.store.stock(of: "strawberry") == 0)
    #expect(try maker.store.stock(of: "banana") == 9)
  }

  @Test func secondStrawberryBananaJuiceFailsShortByTenAndChangesNothing() throws {
    let maker = shop()
    try maker.make("strawberry-banana-juice")
    let before = try maker.store.snapshot()
    #expect(
      throws: JuiceMakerError.outOfStock([Shortage(fruit: "strawberry", needed: 10, available: 0)])
    ) {
      try maker.make("strawberry-banana-juice")
    }
    #expect(try maker.store.snapshot() == before)
  }

  @Test func strawberryJuiceFailsFromTheInitialStock() throws {
    let maker = shop()
    #expect(
      throws: JuiceMakerError.outOfStock([Shortage(fruit: "strawberry", needed: 16, available: 10)])
    ) {
      try maker.make("strawberry-juice")
    }
    #expect(try maker.store.stock(of: "strawberry") == 10)
  }

  @Test(arguments: CatalogTests.shipped)
  func everyShippedRecipeWithdrawsExactlyItsIngredients(juice: Juice.ID, ingredients: [Ingredient])
    throws
  {
    let store = try FruitStore(stock: [
      "strawberry": 100, "banana": 100, "pineapple": 100, "kiwi": 100, "mango": 100,
    ])
    let maker = shop(store: store)
    try maker.make(juice, count: 2)
    for fruit in store.fruits {
      let used = ingredients.first { $0.fruit == fruit }.map { $0.count * 2 } ?? 0
      #expect(try store.stock(of: fruit) == 100 - used, "\(fruit)")
    }
  }

  @Test(arguments: [("mango", 1, 10), ("kiwi", 10, 0), ("mango", 0, 0)])
  func twoFruitJuicesAreAllOrNothing(fruit: Fruit.ID, mango: Int, kiwi: Int) throws {
    let store = try FruitStore(stock: ["mango": mango, "kiwi": kiwi])
    let maker = shop(store: store)
    let error = try #require(throws: JuiceMakerError.self) { try maker.make("mango-kiwi-juice") }
    var expected: [Shortage] = []
    if mango < 2 { expected.append(Shortage(fruit: "mango", needed: 2, available: mango)) }
    if kiwi < 1 { expected.append(Shortage(fruit: "kiwi", needed: 1, available: kiwi)) }
    #expect(error == .outOfStock(expected))
    #expect(try store.snapshot() == ["mango": mango, "kiwi": kiwi])
  }

  @Test func everyShortFruitIsReportedInRecipeOrder() throws {
    let store = try FruitStore(stock: ["banana": 0])
    let maker = shop(store: store)
    #expect(
      throws: JuiceMakerError.outOfStock([
        Shortage(fruit: "strawberry", needed: 30, available: 0),
        Shortage(fruit: "banana", needed: 3, available: 0),
      ])
    ) {
      try maker.make("strawberry-banana-juice", count: 3)
    }
  }

  @Test func shortageReportsWhatIsMissing() throws {
    let shortage = Shortage(fruit: "kiwi", needed: 3, available: 1)
    #expect(shortage.missing == 2)
  }

  @Test func twoShopsSeeEachOthersWithdrawals() throws {
    let store = FruitStore(catalog: catalog)
    let downtown = shop("downtown", store: store)
    let airport = shop("airport", store: store)
    #expect(try airport.makeableCount(of: "strawberry-banana-juice") == 1)
    try downtown.make("strawberry-banana-juice")
    #expect(try airport.makeableCount(of: "strawberry-banana-juice") == 0)
    #expect(throws: JuiceMakerError.self) { try airport.make("strawberry-banana-juice") }
    try airport.restock(10, of: "strawberry")
    #expect(try downtown.canMake("strawberry-banana-juice"))
  }

  @Test func countMakesSeveralAtOnce() throws {
    let maker = shop()
    try maker.make("banana-juice", count: 5)
    #expect(try maker.store.stock(of: "banana") == 0)
  }

  @Test(arguments: [0, -1, Int.min, Int.max, Int.max / 15])
  func invalidCountsAreRefused(count: Int) throws {
    let maker = shop()
    #expect(throws: JuiceMakerError.invalidCount(count)) {
      try maker.make("strawberry-juice", count: count)
    }
    #expect(try maker.store.stock(of: "strawberry") == 10)
  }

  @Test func unknownJuiceIsRefused() throws {
    #expect(throws: JuiceMakerError.unknownJuice("durian-juice")) {
      try shop().make("durian-juice")
    }
  }

  @Test func juiceFromAnotherCatalogIsLookedUpById() throws {
    let other = try Catalog.load(from: Paths.recipes)
    let juice = try #require(other.juice("kiwi-juice"))
    let maker = shop()
    try maker.make(juice)
    #expect(try maker.store.stock(of: "kiwi") == 7)
    let foreign = Juice(id: "kiwi-juice", ingredients: [Ingredient(fruit: "kiwi", count: 1)])
    #expect(throws: JuiceMakerError.unknownJuice("kiwi-juice")) { try maker.make(foreign) }
  }

  @Test func fruitTheStoreLacksCountsAsZero() throws {
    let store = try FruitStore(stock: ["kiwi": 10])
    let maker = shop(store: store)
    #expect(try maker.makeableCount(of: "mango-kiwi-juice") == 0)
    #expect(
      throws: JuiceMakerError.outOfStock([Shortage(fruit: "mango", needed: 2, available: 0)])
    ) {
      try maker.make("mango-kiwi-juice")
    }
    #expect(throws: JuiceMakerError.unknownFruit("mango")) { try maker.restock(1, of: "mango") }
  }

  @Test func availabilityListsTheWholeMenu() throws {
    let menu = try shop().availability()
    #expect(menu.map(\.juice.id) == CatalogTests.shipped.map(\.0))
    #expect(menu.map(\.makeable) == [0, 5, 3, 5, 1, 3, 5])
  }
}

struct JuiceHandleTests {
  let catalog = FruitStoreTests.catalog

  @Test func aHandleMakesTheSameJuiceAsItsID() throws {
    let shop = JuiceMaker(catalog: catalog, store: FruitStore(catalog: catalog))
    let handle = try #require(catalog.handle(of: "strawberry-banana-juice"))
    #expect(catalog.juice("strawberry-banana-juice")?.handle == handle)
    try shop.make(handle)
    #expect(try shop.store.stock(of: "strawberry") == 0)
    #expect(try shop.store.stock(of: "banana") == 9)
  }

  @Test func aRefusedHandleListsEveryShortageAndChangesNothing() throws {
    let shop = JuiceMaker(catalog: catalog, store: FruitStore(catalog: catalog))
    let handle = try #require(catalog.handle(of: "strawberry-juice"))
    let before = try shop.store.snapshot()
    #expect(
      throws: JuiceMakerError.outOfStock([Shortage(fruit: "strawberry", needed: 16, available: 10)])
    ) {
      try shop.make(handle)
    }
    #expect(try shop.store.snapshot() == before)
  }

  @Test func aHandleOfAnotherCatalogIsRefused() throws {
    let other = try Catalog.load(from: Paths.recipes)
    let handle = try #require(other.handle(of: "banana-juice"))
    let shop = JuiceMaker(catalog: catalog, store: FruitStore(catalog: catalog))
    #expect(throws: JuiceMakerError.foreignJuice(handle)) {
      try shop.make(handle)
    }
    #expect(try shop.store.stock(of: "banana") == 10)
  }

  @Test func onlyJuicesOfACatalogHaveHandles() {
    #expect(catalog.handle(of: "cherry-juice") == nil)
    #expect(
      Juice(id: "banana-juice", ingredients: [Ingredient(fruit: "banana", count: 2)]).handle == nil)
  }

  @Test func aWatchedStoreJournalsHandleOrders() throws {
    let store = FruitStore(catalog: catalog)
    let shop = JuiceMaker(name: "downtown", catalog: catalog, store: store)
    let seen = LockedValue<[StockChange]>([])
    let observation = store.observe { change in seen.withLock { $0.append(change) } }
    defer { observation.cancel() }
    try shop.make(try #require(catalog.handle(of: "banana-juice")))
    let entry = try #require(try store.journal(JournalQuery(limit: 1)).first)
    #expect(entry.operation.action == .order("banana-juice", count: 1))
    #expect(seen.withLock { $0.count } == 1)
  }
}
