import JuiceMakerKit
import Synchronization
import Testing

@testable import JuiceMakerCLI

/// The shop session every face drives, against a store in memory shared with another
/// shop, without a terminal.
struct ShopSessionTests {
  struct Shops {
    let session: ShopSession
    let airport: JuiceMaker
    var store: FruitStore { airport.store }
  }

  static func shops(language: String = "ko") throws -> Shops {
    let catalog = try Catalog.load(from: Paths.recipes)
    let store = FruitStore(catalog: catalog)
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: language))
    let session = try ShopSession(
      shop: JuiceMaker(name: "main", catalog: catalog, store: store), texts: texts,
      strings: strings)
    return Shops(
      session: session, airport: JuiceMaker(name: "airport", catalog: catalog, store: store))
  }

  @Test func aStaleSetIsRefusedAndTheLevelsShowTheLevelNow() throws {
    let shops = try Self.shops()
    #expect(shops.session.levels[0] == 10)
    try shops.store.setStock(12, of: "strawberry", by: "airport")
    // The person saw 10 and asks for 11.
    let outcome = try shops.session.submit(.setStock(fruit: 0, level: 11, seen: 10))
    #expect(outcome == .stale("그사이 딸기 재고가 바뀌었어요: 10개를 예상했지만 12개예요."))
    #expect(try shops.store.stock(of: "strawberry") == 12, "not overwritten")
    #expect(shops.session.levels[0] == 12)
    #expect(shops.session.status == "airport: 딸기 +2")
  }

  /// A typed level against another shop's edit: the person saw 4 and typed 7 while
  /// another shop took the level to 9. The set must not land.
  @Test func aTypedLevelDoesNotOverwriteAnEditMadeWhileTyping() throws {
    let shops = try Self.shops(language: "en")
    _ = try shops.session.submit(.setStock(fruit: 3, level: 4, seen: 10))
    try shops.store.add(5, of: "kiwi", by: "airport")
    #expect(try shops.session.refresh(probe: false) == [])
    #expect(shops.session.levels[3] == 9)
    let outcome = try shops.session.submit(.setStock(fruit: 3, level: 7, seen: 4))
    #expect(outcome == .stale("The stock of kiwi changed meanwhile: expected 4, found 9."))
    #expect(try shops.store.stock(of: "kiwi") == 9)
  }

  @Test func aSetFromTheLevelSeenIsApplied() throws {
    let shops = try Self.shops()
    let outcome = try shops.session.submit(.setStock(fruit: 1, level: 16, seen: 10))
    #expect(outcome == .updated("바나나 재고: 16개"))
    #expect(try shops.store.stock(of: "banana") == 16)
    #expect(shops.session.levels[1] == 16)
    #expect(shops.session.status == nil, "the shop's own edit is not another shop's")
  }

  @Test func addAndRemoveEditTheLevel() throws {
    let shops = try Self.shops(language: "en")
    #expect(
      try shops.session.submit(.add(fruit: 2, count: 5)) == .updated("pineapples: 15 in stock"))
    #expect(
      try shops.session.submit(.remove(fruit: 2, count: 15)) == .updated("pineapples: 0 in stock"))
    guard case .rejected = try shops.session.submit(.remove(fruit: 2, count: 1)) else {
      Issue.record("removing from an empty level was not refused")
      return
    }
    #expect(shops.session.levels[2] == 0)
  }

  @Test func aRefusalNamesEveryShortFruitInRecipeOrder() throws {
    let shops = try Self.shops(language: "en")
    let refusal = try shops.session.submit(.order(juice: 0, count: 1))
    #expect(
      refusal
        == .refused(
          "Not enough fruit. Edit the stock? Missing: 6 more strawberries.", shortFruits: [0]))
    #expect(try shops.store.stock(of: "strawberry") == 10, "nothing withdrawn")
  }

  @Test func anOrderServesItsCountAndUpdatesWhatCanBeMade() throws {
    let shops = try Self.shops()
    let outcome = try shops.session.submit(.order(juice: 1, count: 3))
    #expect(outcome == .served("바나나쥬스 3잔 나왔습니다! 맛있게 드세요!"))
    #expect(shops.session.levels[1] == 4)
    #expect(shops.session.makeable[1] == 2)
  }

  /// Other shops' changes are applied from their before and after values; the status
  /// line names only what others did.
  @Test func otherShopsChangesReachTheLevelsAndTheStatusLine() throws {
    let shops = try Self.shops()
    _ = try shops.session.submit(.order(juice: 4, count: 1))
    #expect(shops.session.status == nil)
    try shops.airport.make("banana-juice", count: 2, requestID: .random())
    _ = try shops.session.refresh(probe: false)
    #expect(shops.session.status == "airport: 바나나쥬스 2잔")
    #expect(shops.session.levels == [0, 5, 10, 10, 10])
    #expect(shops.session.makeable[1] == 2)
  }

  @Test(arguments: ["y", "Yes", "예", "네", " 응 ", "YES"])
  func theYesWordsOfEveryLanguageAnswerYes(word: String) throws {
    #expect(try Self.shops(language: "en").session.answers.answer(word) == true)
  }

  @Test(arguments: ["n", "No", "아니오", "아니요", "아니"])
  func theNoWordsOfEveryLanguageAnswerNo(word: String) throws {
    #expect(try Self.shops().session.answers.answer(word) == false)
  }

  @Test func otherWordsAnswerNeither() throws {
    #expect(try Self.shops().session.answers.answer("maybe") == nil)
  }

  // MARK: - Health

  @Test func aRequestTheStoreDoesNotAnswerIsKeptAndDoneOnceUnderItsID() throws {
    let storage = FlakyStorage(catalog: try Catalog.load(from: Paths.recipes))
    let shops = try Self.shops(over: storage)
    storage.failure.withLock { $0 = .busy }
    let outcome = try shops.session.submit(.order(juice: 1, count: 1))
    guard case .waiting = outcome else {
      Issue.record("not kept: \(outcome)")
      return
    }
    #expect(shops.session.health == .busy)
    #expect(shops.session.status?.hasPrefix("재고 파일이 사용 중이에요") == true)
    #expect(try shops.session.refresh() == [])
    #expect(shops.session.isWaiting)
    storage.failure.withLock { $0 = nil }
    #expect(try shops.session.refresh() == [.served("바나나쥬스 나왔습니다! 맛있게 드세요!")])
    #expect(shops.session.health == .good)
    #expect(!shops.session.isWaiting)
    #expect(try shops.store.stock(of: "banana") == 8)
    #expect(try shops.store.journal().filter { $0.outcome == .done }.count == 1)
  }

  /// A lost commit: the store kept the order but the shop never heard. The retry under
  /// the same request id finds it and withdraws nothing more.
  @Test func anOrderWhoseOutcomeWasLostIsNotMadeTwice() throws {
    let storage = FlakyStorage(catalog: try Catalog.load(from: Paths.recipes))
    let shops = try Self.shops(over: storage)
    storage.loseNextOutcome.withLock { $0 = true }
    guard case .waiting = try shops.session.submit(.order(juice: 1, count: 1)) else {
      Issue.record("a lost outcome was not kept to try again")
      return
    }
    #expect(shops.session.health == .reconnecting)
    #expect(try shops.session.refresh() == [.served("바나나쥬스 나왔습니다! 맛있게 드세요!")])
    #expect(try shops.store.stock(of: "banana") == 8, "made once")
  }

  @Test func aServerThatStopsAnsweringShowsOnTheStatusLineAndComesBack() throws {
    let storage = FlakyStorage(catalog: try Catalog.load(from: Paths.recipes))
    let shops = try Self.shops(over: storage, language: "en")
    storage.failure.withLock { $0 = .down }
    #expect(try shops.session.refresh() == [])
    #expect(shops.session.health == .reconnecting)
    #expect(shops.session.status == "Reconnecting to the store…")
    storage.failure.withLock { $0 = nil }
    #expect(try shops.session.refresh() == [])
    #expect(shops.session.health == .good)
    #expect(shops.session.status == nil)
  }

  @Test func dataThatCannotBeTrustedEndsTheSession() throws {
    let storage = FlakyStorage(catalog: try Catalog.load(from: Paths.recipes))
    let shops = try Self.shops(over: storage)
    storage.failure.withLock { $0 = .invalid }
    #expect(throws: CLIError.self) { try shops.session.refresh() }
  }

  static func shops(over storage: FlakyStorage, language: String = "ko") throws -> Shops {
    let catalog = try Catalog.load(from: Paths.recipes)
    let store = FruitStore(storage: storage)
    let strings = try StringCatalog(directory: Paths.localization)
    let session = try ShopSession(
      shop: JuiceMaker(name: "main", catalog: catalog, store: store),
      texts: Texts(localizer: strings.localizer(for: language)), strings: strings)
    return Shops(
      session: session, airport: JuiceMaker(name: "airport", catalog: catalog, store: store))
  }
}
