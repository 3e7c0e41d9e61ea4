import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The full-screen shop in a real terminal (a tmux pane): the seed story played with the
/// keyboard, a second process selling while the screen is open, resizing, the terminal
/// restored after every way out, and the line mode where it must stay.
@Suite(.enabled(if: TmuxPane.enabled, "tmux is not installed"))
struct FullScreenShopTests {
  /// The words of one language the story looks for on the screen.
  struct Story: Sendable, CustomStringConvertible {
    var language: String
    var title: String
    var bananaServed: String
    var refusal: String
    var yes: String
    var stockTitle: String
    var strawberryRow: String
    var strawberryServed: String
    var description: String { language }
  }

  static let stories = [
    Story(
      language: "ko", title: "맛있는 쥬스를 만들어 드려요!", bananaServed: "바나나쥬스 나왔습니다! 맛있게 드세요!",
      refusal: "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 6개", yes: "[ 예 ]",
      stockTitle: "재고 추가", strawberryRow: "› 딸기      −  16 +",
      strawberryServed: "딸기쥬스 나왔습니다! 맛있게 드세요!"),
    Story(
      language: "en", title: "Fresh juice, made just for you!",
      bananaServed: "Here is your Banana Juice. Enjoy!",
      refusal: "Not enough fruit. Edit the stock? Missing: 6 more strawberries.", yes: "[ Yes ]",
      stockTitle: "Edit Stock", strawberryRow: "› strawberry  −  16 +",
      strawberryServed: "Here is your Strawberry Juice. Enjoy!"),
  ]

  @Test(arguments: stories)
  func theSeedStoryIsPlayedWithTheKeyboardAlone(story: Story) async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", story.language], in: sandbox)
    try await pane.waitFor(text: story.title)
    #expect(try pane.display("#{alternate_on}") == "1")
    // Order banana juice by its row number, then strawberry juice: refused, 6 short.
    try pane.send("2", "Enter")
    try await pane.waitFor(text: story.bananaServed)
    try pane.send("1", "Enter")
    let refused = try await pane.waitFor(text: story.yes)
    #expect(refused.joined(separator: " ").contains(story.refusal), "\(refused)")
    // Yes opens the stock screen at strawberry; six steps up, then close.
    try pane.send("Enter")
    try await pane.waitFor(text: story.stockTitle)
    for _ in 0..<6 { try pane.send("Right") }
    try await pane.waitFor(text: story.strawberryRow)
    try pane.send("Escape")
    try await pane.waitFor(text: story.title)
    try pane.send("Enter")
    try await pane.waitFor(text: story.strawberryServed)
    try pane.send("q")
    let end = try await pane.waitForExit()
    #expect(end.status == 0)
    #expect(try pane.display("#{alternate_on}") == "0")
    #expect(
      try await sandbox.stock() == [
        "strawberry": 0, "banana": 8, "pineapple": 10, "kiwi": 10, "mango": 10,
      ])
  }

  /// How long a screen may take, at most, to show another process's change once that
  /// process has exited: the shop follows the store's change feed.
  static let live: Duration = .seconds(1)

  @Test func aSaleByAnotherProcessShowsOnBothScreensWithoutAKey() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "ko"], in: sandbox)
    try await pane.waitFor(text: "딸기 10 · 바나나 10 · 파인애플 10 · 키위 10 · 망고 10")
    let sale = try await sandbox.run(["--shop", "airport", "order", "strawberry-banana-juice"])
    #expect(sale.status == 0, "\(sale)")
    let screen = try await pane.waitFor(text: "딸기 0 · 바나나 9", timeout: Self.live)
    #expect(screen.contains("airport: 딸바쥬스 1잔"))
    #expect(screen.contains { $0.hasPrefix("  5) 딸바쥬스") && $0.hasSuffix("재료 부족") })
    // The stock screen too.
    try pane.send("s")
    try await pane.waitFor(text: "재고 추가")
    let edit = try await sandbox.run(["--shop", "airport", "stock", "add", "kiwi", "5"])
    #expect(edit.status == 0, "\(edit)")
    let stock = try await pane.waitFor(text: "  키위      −  15 +", timeout: Self.live)
    #expect(stock.contains("airport: 키위 +5"))
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }

  @Test func theStockScreenTakesAnotherShopsChangeWhileANumberIsTyped() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "en", "--shop", "downtown"], in: sandbox)
    try await pane.waitFor(text: "Fresh juice")
    try pane.send("s")
    try await pane.waitFor(text: "› strawberry  −  10 +")
    try pane.send("Right", "Right", "PPage", "Left")
    try await pane.waitFor(text: "› strawberry  −  21 +")
    try pane.send("Down")
    try pane.type("3")
    try await pane.waitFor(text: "› banana      −  3_ +")
    let other = try await sandbox.run(["--shop", "airport", "stock", "add", "banana", "5"])
    #expect(other.status == 0, "\(other)")
    let screen = try await pane.waitFor(text: "airport: banana +5")
    #expect(screen.contains("› banana      −  3_ +"), "the typed number stays")
    try pane.send("Escape")
    try await pane.waitFor(text: "› banana      −  15 +")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
    #expect(try await sandbox.stock()["strawberry"] == 21)
    #expect(try await sandbox.stock()["banana"] == 15)
  }

  @Test(arguments: ["ko", "en"])
  func resizingTo40ColumnsRedrawsWithinTheWidth(language: String) async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", language], in: sandbox)
    try await pane.waitFor("the order screen") { $0.contains { $0.hasPrefix("› 1)") } }
    try pane.send("5")
    try pane.resize(width: 40, height: 12)
    let screen = try await pane.waitFor("the screen redrawn at 40 columns") { screen in
      screen.count == 12 && screen.contains { $0.hasPrefix("› 5)") && $0.hasSuffix("×1") }
        && screen[11].hasPrefix("? ")
    }
    for line in screen {
      #expect(Self.displayWidth(line) <= 40, "\(line)")
    }
    #expect(screen[0].hasPrefix(language == "ko" ? "맛있는" : "Fresh"))
    #expect(screen[11].hasPrefix("? "))
    try pane.resize(width: 80, height: 24)
    try await pane.waitFor("the screen redrawn at 80 columns") { screen in
      screen.count == 24 && screen[23].hasPrefix("? ")
    }
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }

  @Test func koreanColumnsLineUpOnTheScreen() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "ko"], in: sandbox)
    let screen = try await pane.waitFor("the menu") { $0.contains { $0.contains("7) 망키쥬스") } }
    let rows = screen.filter { $0.contains(") ") && ($0.contains("잔 가능") || $0.contains("재료 부족")) }
    #expect(rows.count == 7)
    let columns = Set(
      rows.map { row in
        let start =
          row.range(of: "재료 부족") ?? row.range(of: #"[0-9]+잔"#, options: .regularExpression)
        return start.map { Self.displayWidth(String(row[..<$0.lowerBound])) }
      })
    #expect(columns == [19], "\(rows)")
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }

  // MARK: - The terminal restored

  @Test func ctrlCRestoresTheTerminalAndEndsWith130() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "en"], in: sandbox)
    try await pane.waitFor(text: "Fresh juice")
    try pane.send("s")
    try await pane.waitFor(text: "Edit Stock")
    try pane.send("C-c")
    let end = try await pane.waitForExit()
    #expect(end.status == 130)
    Self.expectCooked(end.stty)
    #expect(try pane.display("#{alternate_on}") == "0")
    #expect(try pane.display("#{cursor_flag}") == "1")
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
  func anEndingSignalRestoresTheTerminal(signal: Int32) async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "ko"], in: sandbox)
    try await pane.waitFor(text: "맛있는 쥬스")
    let program = try await pane.programID()
    #expect(kill(program, signal) == 0)
    let end = try await pane.waitForExit()
    #expect(end.status == 128 + Int(signal))
    Self.expectCooked(end.stty)
    #expect(try pane.display("#{alternate_on}") == "0")
  }

  @Test func ctrlDQuitsWithZero() async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane([], in: sandbox)
    try await pane.waitFor(text: "Fresh juice")
    try pane.send("C-d")
    let end = try await pane.waitForExit()
    #expect(end.status == 0)
    Self.expectCooked(end.stty)
  }

  // MARK: - Line mode and colours

  @Test(
    arguments: [
      ([], ["TERM": "dumb"]), (["shop", "--plain"], [:]),
    ] as [([String], [String: String])])
  func theLineModeStaysForDumbTerminalsAndPlain(
    arguments: [String], environment: [String: String]
  ) async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(["--lang", "ko"] + arguments, in: sandbox, environment: environment)
    try await pane.waitFor(text: "  s) 재고수정   q) 끝내기")
    #expect(try pane.display("#{alternate_on}") == "0")
    try pane.type("q")
    try pane.send("Enter")
    try await pane.waitFor(text: "감사합니다. 또 오세요!")
    #expect(try await pane.waitForExit().status == 0)
  }

  @Test(arguments: [false, true])
  func coloursOnlyWithoutNoColor(noColor: Bool) async throws {
    let sandbox = try Sandbox()
    let pane = try TmuxPane(
      ["--lang", "en"], in: sandbox, environment: noColor ? ["NO_COLOR": "1"] : [:])
    try await pane.waitFor(text: "Fresh juice")
    try pane.send("2", "Enter")
    try await pane.waitFor(text: "Here is your Banana Juice")
    let screen = try pane.capture(escapes: true).joined(separator: "\n")
    // Green is SGR 32; bold, dim and reverse video are not colours and stay.
    #expect(screen.contains("\u{1B}[32m") == !noColor, "\(screen.debugDescription)")
    #expect(screen.contains("\u{1B}[0;7m") || screen.contains("\u{1B}[7m"))
    try pane.send("q")
    #expect(try await pane.waitForExit().status == 0)
  }

  // MARK: - Helpers

  /// Raw mode is off: line editing, echo and the signal keys are back.
  static func expectCooked(
    _ modes: Set<String>, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for mode in ["icanon", "echo", "isig", "icrnl", "ixon"] {
      #expect(modes.contains(mode), "stty shows \(mode) off", sourceLocation: sourceLocation)
    }
  }

  /// Columns a captured row takes: Hangul two, the rest one.
  static func displayWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { width, scalar in
      width + ((0xAC00...0xD7A3).contains(scalar.value) ? 2 : 1)
    }
  }
}
