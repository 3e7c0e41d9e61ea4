import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// The full-screen shop's actions against a store in memory shared with another shop,
/// without a terminal.
struct ShopSessionTests {
  struct Shops {
    let session: ShopSession
    let airport: JuiceMaker
    var state: ShopState
  }

  static func shops(language: String = "ko") throws -> Shops {
    let catalog = try Catalog.load(from: Paths.recipes)
    let store = FruitStore(catalog: catalog)
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: language))
    let session = try ShopSession(
      shop: JuiceMaker(name: "main", catalog: catalog, store: store), texts: texts)
    return Shops(
      session: session, airport: JuiceMaker(name: "airport", catalog: catalog, store: store),
      state: session.initialState())
  }

  @Test func aStaleStepIsRefusedAndTheRowShowsTheLevelNow() throws {
    var shops = try Self.shops()
    #expect(shops.state.levels[0] == 10)
    try shops.airport.store.setStock(12, of: "strawberry", by: "airport")
    // The screen still shows 10: the step asks for 11 from 10.
    try shops.session.perform(.setStock(fruit: 0, level: 11, expected: 10), on: &shops.state)
    #expect(try shops.airport.store.stock(of: "strawberry") == 12, "not overwritten")
    #expect(shops.state.message?.kind == .bad)
    #expect(shops.state.message?.text == "그사이 딸기 재고가 바뀌었어요: 10개를 예상했지만 12개예요.")
    #expect(shops.state.levels[0] == 12)
    #expect(shops.state.status == "airport: 딸기 +2")
  }

  @Test func aStepFromTheLevelShownIsApplied() throws {
    var shops = try Self.shops()
    try shops.session.perform(.setStock(fruit: 1, level: 16, expected: 10), on: &shops.state)
    #expect(try shops.airport.store.stock(of: "banana") == 16)
    #expect(shops.state.levels[1] == 16)
    #expect(shops.state.message == ShopState.Message(text: "바나나 재고: 16개", kind: .info))
    #expect(shops.state.status == nil, "the shop's own edit is not another shop's")
  }

  @Test func aRefusalNamesEveryShortFruitAndAsksToEditTheStock() throws {
    var shops = try Self.shops(language: "en")
    try shops.session.perform(.order(juice: 0, count: 1), on: &shops.state)
    #expect(
      shops.state.dialog
        == .editStock(
          message: "Not enough fruit. Edit the stock? Missing: 6 more strawberries.",
          firstShort: 0))
    try shops.session.perform(.order(juice: 4, count: 2), on: &shops.state)
    guard case .editStock(let message, _) = shops.state.dialog else {
      Issue.record("no question after a refusal: \(shops.state)")
      return
    }
    #expect(message == "Not enough fruit. Edit the stock? Missing: 10 more strawberries.")
  }

  @Test func anOrderServesTheCountAndUpdatesWhatCanBeMade() throws {
    var shops = try Self.shops()
    try shops.session.perform(.order(juice: 1, count: 3), on: &shops.state)
    #expect(shops.state.message == ShopState.Message(text: "바나나쥬스 3잔 나왔습니다! 맛있게 드세요!", kind: .good))
    #expect(shops.state.levels[1] == 4)
    #expect(shops.state.makeable[1] == 2)
    #expect(shops.state.count == 1)
  }

  @Test func theStatusLineShowsOnlyWhatOtherShopsDid() throws {
    var shops = try Self.shops()
    try shops.session.perform(.order(juice: 4, count: 1), on: &shops.state)
    #expect(shops.state.status == nil)
    // A request id takes the journaled path, as every order on a durable store does.
    try shops.airport.make("banana-juice", count: 2, requestID: .random())
    try shops.session.poll(&shops.state)
    #expect(shops.state.status == "airport: 바나나쥬스 2잔")
    #expect(shops.state.levels == [0, 5, 10, 10, 10])
  }
}
