import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// The keys of the full-screen shop, on the seed's menu (7 juices, 5 fruits), without a
/// terminal.
struct ShopStateTests {
  /// The yes and no words of the shipped string catalogs.
  // swift-format-ignore: NeverUseForceTry
  static let answers = AnswerWords(strings: try! StringCatalog(directory: Paths.localization))

  static func seed() -> ShopState {
    ShopState(
      juiceCount: 7, fruitCount: 5, levels: [10, 10, 10, 10, 10], makeable: [0, 5, 3, 5, 1, 3, 5],
      answers: answers)
  }

  @Test func arrowsAndVimKeysMoveWithinTheMenuAndTheEditStockRow() {
    var state = Self.seed()
    #expect(state.handle(.up) == nil)
    #expect(state.orderRow == 0)
    for _ in 0..<20 { _ = state.handle(.character("j")) }
    #expect(state.orderRow == 7)
    _ = state.handle(.character("k"))
    #expect(state.orderRow == 6)
  }

  @Test func aRowNumberChoosesTheRowAndEnterOrdersTheCountShown() {
    var state = Self.seed()
    _ = state.handle(.character("5"))
    _ = state.handle(.right)
    _ = state.handle(.character("+"))
    #expect(state.count == 3)
    #expect(state.handle(.enter) == .order(juice: 4, count: 3))
    state.ordered("served")
    #expect(state.count == 1)
    #expect(state.message == ShopState.Message(text: "served", kind: .good))
    _ = state.handle(.character("9"))
    #expect(state.orderRow == 4, "9 is not on a menu of 7")
  }

  @Test func digitsMakeOneRowNumberOnALongMenu() {
    var state = ShopState(
      juiceCount: 12, fruitCount: 1, levels: [1], makeable: Array(repeating: 1, count: 12),
      answers: Self.answers)
    _ = state.handle(.character("1"))
    _ = state.handle(.character("2"))
    #expect(state.orderRow == 11)
    _ = state.handle(.character("3"))
    #expect(state.orderRow == 2)
  }

  @Test func aRefusalAsksAndYesOpensTheStockAtTheFirstShortFruit() {
    var state = Self.seed()
    state.refused("short", shortFruits: [3, 1])
    #expect(state.dialog == .editStock(message: "short", firstShort: 3))
    #expect(state.handle(.character("q")) == nil, "q does not quit while a question is open")
    _ = state.handle(.right)
    #expect(!state.yesChosen)
    _ = state.handle(.left)
    #expect(state.handle(.enter) == nil)
    #expect(state.screen == .stock)
    #expect(state.stockRow == 3)
  }

  @Test(arguments: [Key.escape, .character("n"), .character("N")])
  func escapeAndNoAnswerNo(key: Key) {
    var state = Self.seed()
    state.refused("short", shortFruits: [0])
    _ = state.handle(key)
    #expect(state.dialog == nil)
    #expect(state.screen == .order)
  }

  /// The dialog takes the catalog's yes words of every language, as the line shop does:
  /// 네 and 응 as well as y and 예.
  @Test(arguments: ["y", "Y", "예", "네", "응"] as [Character])
  func theCatalogsYesWordsAnswerYes(word: Character) {
    var state = Self.seed()
    state.refused("short", shortFruits: [2])
    state.yesChosen = false
    _ = state.handle(.character(word))
    #expect(state.dialog == nil)
    #expect(state.screen == .stock)
    #expect(state.stockRow == 2)
  }

  @Test func aKeyThatIsNoWordLeavesTheQuestionOpen() {
    var state = Self.seed()
    state.refused("short", shortFruits: [2])
    #expect(state.handle(.character("x")) == nil)
    #expect(state.dialog != nil)
  }

  /// A typed number replaces the level the row showed when typing began; a level that
  /// arrives meanwhile must not become the expected one, or Enter would overwrite it.
  @Test func aTypedLevelIsSetAgainstTheLevelShownWhenTypingBegan() {
    var state = Self.seed()
    _ = state.handle(.character("s"))
    _ = state.handle(.down)
    _ = state.handle(.character("7"))
    state.update(levels: [10, 15, 10, 10, 10], makeable: [0, 5, 3, 5, 1, 3, 5])
    #expect(state.handle(.enter) == .setStock(fruit: 1, level: 7, expected: 10))
    // The next number starts from the level shown then.
    _ = state.handle(.character("8"))
    #expect(state.handle(.enter) == .setStock(fruit: 1, level: 8, expected: 15))
  }

  @Test func stepsAreConditionalSetsFromTheLevelShown() {
    var state = Self.seed()
    _ = state.handle(.character("s"))
    #expect(state.screen == .stock)
    #expect(state.handle(.right) == .setStock(fruit: 0, level: 11, expected: 10))
    #expect(state.handle(.character("-")) == .setStock(fruit: 0, level: 9, expected: 10))
    #expect(state.handle(.pageUp) == .setStock(fruit: 0, level: 20, expected: 10))
    #expect(state.handle(.pageDown) == .setStock(fruit: 0, level: 0, expected: 10))
    state.update(levels: [0, 10, 10, 10, 10], makeable: [0, 5, 3, 5, 0, 3, 5])
    #expect(state.handle(.left) == nil, "the stock never goes below zero")
  }

  @Test func aTypedNumberSetsTheLevelOnEnterAndEscapeDropsIt() {
    var state = Self.seed()
    _ = state.handle(.character("s"))
    _ = state.handle(.down)
    for digit in "125" { _ = state.handle(.character(digit)) }
    _ = state.handle(.backspace)
    #expect(state.typed == "12")
    #expect(state.handle(.enter) == .setStock(fruit: 1, level: 12, expected: 10))
    #expect(state.typed == "")
    _ = state.handle(.character("7"))
    _ = state.handle(.escape)
    #expect(state.typed == "")
    #expect(state.screen == .stock)
    _ = state.handle(.escape)
    #expect(state.screen == .order)
  }

  @Test func quitAsksOnlyWhenANumberIsTyped() {
    var state = Self.seed()
    _ = state.handle(.character("s"))
    _ = state.handle(.character("4"))
    #expect(state.handle(.character("q")) == nil)
    #expect(state.dialog == .quitWithTypedNumber)
    #expect(state.handle(.character("y")) == .quit)
    var plain = Self.seed()
    #expect(plain.handle(.character("q")) == .quit)
    #expect(plain.handle(.endOfInput) == .quit)
    #expect(plain.handle(.interrupt) == .interrupt)
  }

  /// Quitting drops the requests that wait for the store, so it asks first, with No
  /// chosen.
  @Test(arguments: [Key.character("q"), .endOfInput])
  func quitAsksWhileRequestsWaitForTheStore(key: Key) {
    var state = Self.seed()
    state.waiting = 2
    #expect(state.handle(key) == nil)
    #expect(state.dialog == .quitWithWaitingRequests(2))
    #expect(!state.yesChosen)
    #expect(state.handle(.enter) == nil, "No is chosen")
    #expect(state.dialog == nil)
    _ = state.handle(key)
    #expect(state.handle(.character("y")) == .quit)
  }

  @Test func questionMarkShowsTheKeysUntilTheNextKey() {
    var state = Self.seed()
    _ = state.handle(.character("?"))
    #expect(state.showsKeys)
    #expect(state.handle(.character("q")) == nil)
    #expect(!state.showsKeys)
  }

  @Test func enterOnTheButtonRowsOpensAndClosesTheStockScreen() {
    var state = Self.seed()
    _ = state.handle(.end)
    #expect(state.handle(.enter) == nil)
    #expect(state.screen == .stock)
    _ = state.handle(.end)
    #expect(state.handle(.enter) == nil)
    #expect(state.screen == .order)
  }
}
