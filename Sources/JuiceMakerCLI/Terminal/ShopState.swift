import JuiceMakerKit

/// Everything the full-screen shop shows, and what each key does to it.
///
/// The state holds no store and does no I/O: `handle(_:)` changes the state and returns
/// the `ShopAction` the loop must carry out (an order, a stock edit, quitting); the loop
/// reports the result back through `ordered(_:)`, `refused(_:shortFruits:)` and the
/// other methods. `ShopRenderer` draws it.
struct ShopState: Hashable, Sendable {
  /// Which screen is shown.
  enum Screen: Hashable, Sendable {
    /// The menu: juices to order and the 재고수정 action.
    case order
    /// Each fruit's level with a stepper.
    case stock
  }

  /// A yes-or-no question shown over the screen.
  enum Dialog: Hashable, Sendable {
    /// After a refusal: edit the stock? `message` names every short fruit.
    case editStock(message: String, firstShort: Int?)
    /// Quit without applying the number being typed?
    case quitWithTypedNumber
    /// Quit while requests wait for the store, without them?
    case quitWithWaitingRequests(Int)
  }

  /// The message under the list.
  struct Message: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case good, bad, info }
    var text: String
    var kind: Kind
  }

  /// The number of juices on the menu.
  let juiceCount: Int
  /// The number of fruits in the store.
  let fruitCount: Int

  var screen = Screen.order
  /// Each fruit's level, in the store's order.
  var levels: [Int]
  /// How many of each juice can be made now, in menu order.
  var makeable: [Int]
  /// The chosen row of the order screen; `juiceCount` is the 재고수정 action.
  var orderRow = 0
  /// How many of the chosen juice to order at once (the ×N field).
  var count = 1
  /// The chosen row of the stock screen; `fruitCount` is 닫기.
  var stockRow = 0
  /// Digits typed on the stock screen, not yet applied.
  var typed = "" {
    didSet { if typed.isEmpty { typedOver = nil } }
  }
  /// The level the chosen row showed when the first digit was typed: the level the
  /// typed number replaces, which the store must still hold when it is applied.
  private(set) var typedOver: Int?
  /// Digits typed on the order screen to choose a row.
  var rowDigits = ""
  var message: Message?
  var dialog: Dialog?
  /// Whether the Yes button of the dialog is chosen.
  var yesChosen = true
  /// What another shop just did, or the store's health while it does not answer.
  var status: String?
  /// How many requests wait for the store to answer.
  var waiting = 0
  /// Whether the list of keys is shown.
  var showsKeys = false
  /// The words a key may answer a question with.
  let answers: AnswerWords

  /// The largest count of one order, and the most digits a typed level may have.
  static let largestCount = 99
  static let longestTypedNumber = 9

  init(juiceCount: Int, fruitCount: Int, levels: [Int], makeable: [Int], answers: AnswerWords) {
    self.juiceCount = juiceCount
    self.fruitCount = fruitCount
    self.levels = levels
    self.makeable = makeable
    self.answers = answers
  }

  // MARK: - Keys

  /// Applies a key.
  ///
  /// - Returns: What the loop must do, or `nil` when the key only changed the state.
  mutating func handle(_ key: Key) -> ShopAction? {
    switch key {
    case .interrupt: return .interrupt
    case .redraw: return .redraw
    case .endOfInput where dialog == nil && typed.isEmpty: return quit()
    default: break
    }
    if showsKeys {
      showsKeys = false
      return nil
    }
    if dialog != nil { return handleDialog(key) }
    if key == .character("?") {
      showsKeys = true
      return nil
    }
    switch screen {
    case .order: return handleOrder(key)
    case .stock: return handleStock(key)
    }
  }

  private mutating func handleDialog(_ key: Key) -> ShopAction? {
    switch key {
    case .left, .right, .tab, .character("h"), .character("l"):
      yesChosen.toggle()
      return nil
    case .character(let character):
      // One key, one word: y or n, and 예, 네 or 아니 from a Korean input method.
      guard let yes = answers.answer(String(character)) else { return nil }
      return answer(yes: yes)
    case .escape, .endOfInput:
      return answer(yes: false)
    case .enter:
      return answer(yes: yesChosen)
    default:
      return nil
    }
  }

  private mutating func answer(yes: Bool) -> ShopAction? {
    guard let dialog else { return nil }
    self.dialog = nil
    switch dialog {
    case .editStock(_, let firstShort):
      message = nil
      if yes { openStock(at: firstShort ?? 0) }
      return nil
    case .quitWithTypedNumber, .quitWithWaitingRequests:
      return yes ? .quit : nil
    }
  }

  private mutating func handleOrder(_ key: Key) -> ShopAction? {
    if case .character(let character) = key, let digit = character.wholeNumberValue,
      character.isASCII
    {
      chooseRow(typing: digit)
      return nil
    }
    rowDigits = ""
    switch key {
    case .up, .character("k"): orderRow = max(0, orderRow - 1)
    case .down, .character("j"): orderRow = min(juiceCount, orderRow + 1)
    case .home: orderRow = 0
    case .end: orderRow = juiceCount
    case .left, .character("-"): count = max(1, count - 1)
    case .right, .character("+"), .character("="): count = min(Self.largestCount, count + 1)
    case .pageUp: count = min(Self.largestCount, count + 10)
    case .pageDown: count = max(1, count - 10)
    case .character("s"), .character("S"): openStock(at: 0)
    case .character("q"), .character("Q"): return quit()
    case .escape: message = nil
    case .enter:
      if orderRow == juiceCount {
        openStock(at: 0)
        return nil
      }
      return .order(juice: orderRow, count: count)
    default: break
    }
    return nil
  }

  /// Chooses a row by its number; digits typed one after another make one number when
  /// the menu has that many rows ("1" then "2" is row 12 on a menu of 12 or more).
  private mutating func chooseRow(typing digit: Int) {
    let joined = Int(rowDigits + String(digit)) ?? digit
    if joined >= 1, joined <= juiceCount {
      rowDigits += String(digit)
      orderRow = joined - 1
    } else if digit >= 1, digit <= juiceCount {
      rowDigits = String(digit)
      orderRow = digit - 1
    } else {
      rowDigits = ""
    }
  }

  private mutating func handleStock(_ key: Key) -> ShopAction? {
    if case .character(let character) = key, let digit = character.wholeNumberValue,
      character.isASCII, stockRow < fruitCount
    {
      if typed.isEmpty { typedOver = levels[stockRow] }
      if typed.count < Self.longestTypedNumber, !(typed == "0") {
        typed += String(digit)
      } else if typed == "0" {
        typed = String(digit)
      }
      return nil
    }
    switch key {
    case .backspace, .delete:
      if !typed.isEmpty { typed.removeLast() }
      return nil
    case .up, .character("k"):
      typed = ""
      stockRow = max(0, stockRow - 1)
    case .down, .character("j"):
      typed = ""
      stockRow = min(fruitCount, stockRow + 1)
    case .home:
      typed = ""
      stockRow = 0
    case .end:
      typed = ""
      stockRow = fruitCount
    case .left, .character("-"): return step(by: -1)
    case .right, .character("+"), .character("="): return step(by: 1)
    case .pageUp: return step(by: 10)
    case .pageDown: return step(by: -10)
    case .escape:
      if typed.isEmpty { closeStock() } else { typed = "" }
    case .character("c"), .character("C"):
      typed = ""
      closeStock()
    case .character("q"), .character("Q"):
      if typed.isEmpty { return quit() }
      dialog = .quitWithTypedNumber
      yesChosen = false
    case .enter:
      if stockRow == fruitCount {
        closeStock()
      } else if let level = Int(typed) {
        // Against the level the number was typed over, not one that arrived meanwhile.
        let seen = typedOver ?? levels[stockRow]
        typed = ""
        return .setStock(fruit: stockRow, level: level, expected: seen)
      }
    default: break
    }
    return nil
  }

  /// Quits, or asks first while requests wait for the store: quitting drops them.
  private mutating func quit() -> ShopAction? {
    guard waiting > 0 else { return .quit }
    dialog = .quitWithWaitingRequests(waiting)
    yesChosen = false
    return nil
  }

  private mutating func step(by amount: Int) -> ShopAction? {
    guard stockRow < fruitCount else { return nil }
    typed = ""
    let current = levels[stockRow]
    let target = max(0, StockLedger.adding(amount, to: current) ?? current)
    guard target != current else { return nil }
    return .setStock(fruit: stockRow, level: target, expected: current)
  }

  private mutating func openStock(at row: Int) {
    screen = .stock
    stockRow = min(max(0, row), fruitCount)
    typed = ""
    message = nil
  }

  private mutating func closeStock() {
    screen = .order
    typed = ""
    message = nil
  }

  // MARK: - Results

  /// Shows the message of juice served.
  mutating func ordered(_ text: String) {
    message = Message(text: text, kind: .good)
    count = 1
  }

  /// Shows a refusal and asks whether to edit the stock.
  ///
  /// - Parameters:
  ///   - text: The message naming every short fruit.
  ///   - shortFruits: The short fruits' rows on the stock screen, in recipe order.
  mutating func refused(_ text: String, shortFruits: [Int]) {
    message = nil
    dialog = .editStock(message: text, firstShort: shortFruits.first)
    yesChosen = true
  }

  /// Shows a message after an action.
  mutating func show(_ text: String, _ kind: Message.Kind) {
    message = Message(text: text, kind: kind)
  }

  /// Takes the store's current levels and makeable counts.
  mutating func update(levels: [Int], makeable: [Int]) {
    self.levels = levels
    self.makeable = makeable
  }

  /// Takes the session's levels, makeable counts and status line.
  mutating func update(from session: ShopSession) {
    update(levels: session.levels, makeable: session.makeable)
    status = session.status
    waiting = session.waitingCount
  }

  /// Shows how a request ended.
  mutating func take(_ outcome: ShopOutcome) {
    switch outcome {
    case .served(let text): ordered(text)
    case .refused(let text, let shortFruits): refused(text, shortFruits: shortFruits)
    case .updated(let text), .waiting(let text): show(text, .info)
    case .stale(let text), .rejected(let text): show(text, .bad)
    }
  }
}

/// What a key asks the full-screen loop to do beyond changing the state.
enum ShopAction: Hashable, Sendable {
  /// Make `count` of the juice at this menu position.
  case order(juice: Int, count: Int)
  /// Set a fruit's level, provided it is still `expected`.
  case setStock(fruit: Int, level: Int, expected: Int)
  /// Draw the whole screen again (Ctrl-L).
  case redraw
  /// End normally.
  case quit
  /// End as interrupted (Ctrl-C).
  case interrupt
}
