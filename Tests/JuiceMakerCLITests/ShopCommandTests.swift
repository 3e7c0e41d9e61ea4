import JuiceMakerCLI
import Testing

struct ShopCommandTests {
  /// The Korean stock screen's syntax.
  static let koreanStockHelp =
    "+ 과일 수량으로 추가, - 과일 수량으로 빼기, = 과일 수량으로 설정해요 (과일은 번호나 이름, 예: + 1 10, + 딸기 10개). 다 되면 닫기, 도움말은 ?."
  /// The English order screen's syntax.
  static let orderHelp =
    "Type a juice's number or name to order it, s to edit the stock, q to quit, ? for this help."
  /// The English stock screen's syntax.
  static let stockHelp =
    "Type + FRUIT N to add, - FRUIT N to remove, = FRUIT N to set (FRUIT by number or name, as in + 1 10 or + strawberry 10), Close to close, ? for this help."

  /// The lines of the Korean order screen.
  static func koreanOrderScreen(board: String, makeable: [Int]) -> [String] {
    let names = [
      "딸기쥬스    ", "바나나쥬스  ", "키위쥬스    ", "파인애플쥬스", "딸바쥬스    ", "망고쥬스    ", "망키쥬스    ",
    ]
    return ["맛있는 쥬스를 만들어 드려요!", board]
      + zip(names, makeable).enumerated().map { "  \($0 + 1)) \($1.0)  \($1.1)잔 가능" }
      + ["  s) 재고수정   q) 끝내기"]
  }

  /// The lines of the Korean stock screen.
  static func koreanStockScreen(_ levels: [Int]) -> [String] {
    let names = ["딸기", "바나나", "파인애플", "키위", "망고"]
    return ["재고 추가"] + zip(names, levels).enumerated().map { "  \($0 + 1)) \($1.0) \($1.1)" }
      + [koreanStockHelp]
  }

  @Test func koreanSessionOrdersIsRefusedEditsTheStockAndOrdersAgain() async throws {
    let sandbox = try Sandbox()
    let input = "5\n5\n예\n+ 딸기 10\n= 바나나 3\n- 키위 2\n닫기\n딸바쥬스\n끝내기\n"
    let outcome = try await sandbox.run(["--lang", "ko"], input: input)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    // Each screen opens with a blank line and ends with the prompt "> ", which shares its
    // line with what answers the input.
    let order = Self.koreanOrderScreen
    let stock = Self.koreanStockScreen
    let made = "> 딸바쥬스 나왔습니다! 맛있게 드세요!"
    var expected = [""]
    expected += order("딸기 10 · 바나나 10 · 파인애플 10 · 키위 10 · 망고 10", [0, 5, 3, 5, 1, 3, 5])
    expected += [made, ""]
    expected += order("딸기 0 · 바나나 9 · 파인애플 10 · 키위 10 · 망고 10", [0, 4, 3, 5, 0, 3, 5])
    expected += ["> 재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 10개", "(예: y · 아니오: n, q 또는 빈 줄) "]
    expected += stock([0, 9, 10, 10, 10]) + ["> 딸기 재고: 10개", ""]
    expected += stock([10, 9, 10, 10, 10]) + ["> 바나나 재고: 3개", ""]
    expected += stock([10, 3, 10, 10, 10]) + ["> 키위 재고: 8개", ""]
    expected += stock([10, 3, 10, 8, 10]) + ["> "]
    expected += order("딸기 10 · 바나나 3 · 파인애플 10 · 키위 8 · 망고 10", [0, 1, 2, 5, 1, 3, 5])
    expected += [made, ""]
    expected += order("딸기 0 · 바나나 2 · 파인애플 10 · 키위 8 · 망고 10", [0, 1, 2, 5, 0, 3, 5])
    expected += ["> 감사합니다. 또 오세요!"]
    #expect(outcome.lines == expected)
    #expect(
      try await sandbox.stock() == [
        "strawberry": 0, "banana": 2, "pineapple": 10, "kiwi": 8, "mango": 10,
      ])
  }

  @Test func englishShopHasTheSameScreens() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: "q\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    #expect(
      outcome.lines == [
        "",
        "Fresh juice, made just for you!",
        "strawberries 10 · bananas 10 · pineapples 10 · kiwis 10 · mangoes 10",
        "  1) Strawberry Juice         0 can be made",
        "  2) Banana Juice             5 can be made",
        "  3) Kiwi Juice               3 can be made",
        "  4) Pineapple Juice          5 can be made",
        "  5) Strawberry Banana Juice  1 can be made",
        "  6) Mango Juice              3 can be made",
        "  7) Mango Kiwi Juice         5 can be made",
        "  s) Edit Stock   q) Quit",
        "> Thank you, come again!",
      ])
  }

  @Test(arguments: ["+2", "٢", "2.0"])
  func aMenuNumberIsPlainDigits(choice: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: choice + "\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(!outcome.stdout.contains("Here is your"), "\(outcome)")
    #expect(try await sandbox.stock() == freshStock)
  }

  @Test func noCommandRunsTheShop() async throws {
    let sandbox = try Sandbox()
    let shop = try await sandbox.run(["shop"], input: "2\nq\n")
    let bare = try await Sandbox().run([], input: "2\nq\n")
    #expect(bare.status == 0, "\(bare)")
    #expect(bare.stdout == shop.stdout)
    #expect(bare.stdout.contains("> Here is your Banana Juice. Enjoy!\n"))
  }

  @Test(arguments: ["n", "NO", "q", "", "\u{1B}", "\u{1B}[A", "아니요"])
  func theYesNoPromptShowsItsChoicesAndTakesQEmptyAndEscapeAsNo(answer: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: "1\n\(answer)\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let refusal = "> Not enough fruit. Edit the stock? Missing: 6 more strawberries."
    let refusalLine = try #require(outcome.lines.firstIndex(of: refusal), "\(outcome)")
    #expect(outcome.lines[refusalLine + 1] == "(Yes: y · No: n, q or an empty line) ")
    #expect(outcome.lines[refusalLine + 2] == "Fresh juice, made just for you!")
    #expect(!outcome.stdout.contains("Edit Stock\n"))
    #expect(try await sandbox.stock() == freshStock)
  }

  @Test func anotherAnswerIsNamedAndTheQuestionAskedAgain() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: "1\nmaybe\n3\ny\nClose\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.errorLines == [
        "“maybe” is neither yes nor no; answer y or n.",
        "“3” is neither yes nor no; answer y or n.",
      ])
    let prompt = "(Yes: y · No: n, q or an empty line) "
    #expect(outcome.stdout.contains(prompt + prompt + prompt + "\nEdit Stock\n"), "\(outcome)")
  }

  @Test(arguments: ["?", "help", "HELP", "도움말"])
  func eachScreenPrintsItsOwnSyntaxOnRequest(request: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: "\(request)\ns\n\(request)\nClose\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    #expect(outcome.lines.contains("> " + Self.orderHelp), "\(outcome)")
    #expect(outcome.lines.contains("> " + Self.stockHelp), "\(outcome)")
  }

  @Test func koreanStockEditsTakeNInEveryNaturalForm() async throws {
    let sandbox = try Sandbox()
    let input = "s\n+ 딸기 10\n+ 딸기 10개\n+딸기10\n+ 1 10\n- 키위 3개\n= 망고 7\n닫기\nq\n"
    let outcome = try await sandbox.run(["--lang", "ko", "shop"], input: input)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "", "\(outcome)")
    #expect(
      try await sandbox.stock() == [
        "strawberry": 50, "banana": 10, "pineapple": 10, "kiwi": 7, "mango": 7,
      ])
  }

  @Test func koreanStockEditsNameAMissingOrMalformedN() async throws {
    let sandbox = try Sandbox()
    let input = "s\n+ 딸기\n= 딸기 abc\n+ 딸기 abc\n- 딸기 x3\n+ 10\n닫기\nq\n"
    let outcome = try await sandbox.run(["--lang", "ko", "shop"], input: input)
    #expect(outcome.status == 0, "\(outcome)")
    let help = " " + Self.koreanStockHelp
    #expect(
      outcome.errorLines == [
        "과일 뒤에 수량 N이 없어요." + help,
        "수량 N은 정수여야 해요. “abc”(은)는 정수가 아니에요." + help,
        "수량 N은 정수여야 해요. “abc”(은)는 정수가 아니에요." + help,
        "수량 N은 정수여야 해요. “x3”은 정수가 아니에요." + help,
        "수량 N 앞에 과일이 없어요." + help,
      ])
    #expect(!outcome.stderr.contains("juice-maker"))
    #expect(try await sandbox.stock() == freshStock)
  }

  @Test(arguments: [
    ("", "> "), ("1\n", "(Yes: y · No: n, q or an empty line) "), ("1\ny\n", "> "),
    ("s\n+ kiwi 1\n", "> "), ("3", "> "),
  ])
  func endOfInputEndsTheShopCleanly(input: String, lastLine: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: input)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    #expect(outcome.stdout.hasSuffix("\n"))
    #expect(outcome.lines.last == lastLine)
  }

  @Test func unknownChoicesAreReportedOnStandardErrorAndTheShopGoesOn() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["shop"], input: "9\n0\ngrape\n  \nbanana juice\nquit\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.errorLines == [
        "There is no juice “9” on the menu. " + Self.orderHelp,
        "There is no juice “0” on the menu. " + Self.orderHelp,
        "There is no juice “grape” on the menu. " + Self.orderHelp,
      ])
    #expect(outcome.lines.contains("> > > > > Here is your Banana Juice. Enjoy!"))
    #expect(outcome.lines.last == "> Thank you, come again!")
  }

  @Test func stockScreenReportsBadEditsAndKeepsTheStock() async throws {
    let sandbox = try Sandbox()
    let input =
      "s\n- kiwi 11\n+ grape 1\n= kiwi\n+ kiwi\n+ kiwi 0\n= kiwi -1\n+ kiwi x\n+ 4 5\nClose\nq\n"
    let outcome = try await sandbox.run(["shop"], input: input)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.errorLines == [
        "Only 10 kiwis in stock, so 11 can't be removed.",
        "There is no fruit “grape” in the store. " + Self.stockHelp,
        "N, how many, is missing after the fruit. " + Self.stockHelp,
        "N, how many, is missing after the fruit. " + Self.stockHelp,
        "N must be at least 1, not 0.",
        "N must not be negative, not -1.",
        "N must be a whole number, not “x”. " + Self.stockHelp,
      ])
    #expect(outcome.lines.contains("> > > > > > > > kiwis: 15 in stock"))
    #expect(
      outcome.stdout.contains(
        "strawberries 10 · bananas 10 · pineapples 10 · kiwis 15 · mangoes 10"))
    #expect(try await sandbox.stock()["kiwi"] == 15)
  }

  @Test func editsAndOrdersOfTheShopAreJournaledUnderItsName() async throws {
    let sandbox = try Sandbox()
    let input = "s\n+ strawberry 6\nc\n1\n1\nn\nq\n"
    let outcome = try await sandbox.run(["--shop", "kiosk", "shop"], input: input)
    #expect(outcome.status == 0, "\(outcome)")
    let history = try await sandbox.history()
    #expect(history.map { $0.string("shop") } == ["kiosk", "kiosk", "kiosk"])
    #expect(history.map { $0.string("kind") } == ["order", "order", "add"])
    #expect(history.map { $0.string("outcome") } == ["refused", "done", "done"])
    #expect(history.map { $0.counts("changes") } == [[:], ["strawberry": -16], ["strawberry": 6]])
  }

  @Test func shopWorksInProcess() async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["--lang", "ko", "shop"], input: "2\n3\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.lines.filter { $0.hasPrefix("> ") } == [
        "> 바나나쥬스 나왔습니다! 맛있게 드세요!", "> 키위쥬스 나왔습니다! 맛있게 드세요!", "> 감사합니다. 또 오세요!",
      ])
  }
  @Test func aSetFromAStaleStockScreenIsRefusedWithTheLevelFoundAndTheScreenRedrawn()
    async throws
  {
    let sandbox = try Sandbox()
    // Another shop adds 10 bananas after the stock screen showed 10, before "= 바나나 5".
    let input = ActingInput(
      ["s", "= 바나나 5", "= 바나나 5", "닫기", "끝내기"],
      before: 1
    ) {
      // The shop is inside readLine and cannot await: the other shop is its own process.
      do {
        let restock = try sandbox.runBlocking(["--shop", "airport", "stock", "add", "banana", "10"])
        #expect(restock.status == 0, "\(restock)")
      } catch {
        Issue.record(error)
      }
    }
    let outcome = await sandbox.runInProcess(["--lang", "ko", "shop", "--plain"], reading: input)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "그사이 바나나 재고가 바뀌었어요: 10개를 예상했지만 20개예요.\n")
    // The screen is shown again with the level found; the second set, made from it, holds.
    #expect(outcome.lines.contains("  2) 바나나 20"))
    #expect(outcome.lines.contains("> 바나나 재고: 5개"))
    #expect(try await sandbox.stock()["banana"] == 5)
  }
}

/// Lines of input, with an action run once just before the line at `before` is read.
struct ActingInput: LineInput {
  private var lines: [String]
  private var index = 0
  private let before: Int
  private let action: () -> Void

  init(_ lines: [String], before: Int, action: @escaping () -> Void) {
    self.lines = lines
    self.before = before
    self.action = action
  }

  mutating func readLine() -> String? {
    guard index < lines.count else { return nil }
    if index == before { action() }
    defer { index += 1 }
    return lines[index]
  }
}
