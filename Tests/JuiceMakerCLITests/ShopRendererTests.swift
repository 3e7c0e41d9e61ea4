import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// The full-screen shop's frames, drawn without a terminal.
struct ShopRendererTests {
  static let juices: [Juice.ID] = [
    "strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice", "strawberry-banana-juice",
    "mango-juice", "mango-kiwi-juice",
  ]
  static let fruits: [Fruit.ID] = ["strawberry", "banana", "pineapple", "kiwi", "mango"]

  static func renderer(_ language: String) throws -> ShopRenderer {
    let strings = try StringCatalog(directory: Paths.localization)
    return ShopRenderer(
      texts: Texts(localizer: strings.localizer(for: language)), juices: juices, fruits: fruits)
  }

  static func states() -> [ShopState] {
    var order = ShopStateTests.seed()
    var refused = order
    refused.refused(
      "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 10개, 바나나 1개", shortFruits: [0, 1])
    refused.status = "airport: 딸바쥬스 1잔"
    var stock = order
    _ = stock.handle(.character("s"))
    _ = stock.handle(.character("1"))
    var keys = order
    _ = keys.handle(.character("?"))
    _ = order.handle(.end)
    return [order, refused, stock, keys]
  }

  @Test(
    arguments: ["ko", "en"],
    [
      TerminalSize(width: 40, height: 12), TerminalSize(width: 80, height: 24),
      TerminalSize(width: 57, height: 13), TerminalSize(width: 200, height: 60),
      TerminalSize(width: 12, height: 4),
    ])
  func everyFrameFitsTheScreen(language: String, size: TerminalSize) throws {
    let renderer = try Self.renderer(language)
    for state in Self.states() {
      let lines = renderer.render(state, size: size)
      #expect(lines.count <= size.height)
      for line in lines {
        #expect(line.text.displayWidth <= size.width, "\(line.text)")
      }
    }
  }

  @Test func theOrderScreenAlignsItsColumnsByDisplayWidth() throws {
    let lines = try Self.renderer("ko").render(
      ShopStateTests.seed(), size: TerminalSize(width: 80, height: 24)
    ).map(\.text)
    #expect(lines[0] == "맛있는 쥬스를 만들어 드려요!")
    #expect(lines[1] == "딸기 10 · 바나나 10 · 파인애플 10 · 키위 10 · 망고 10")
    #expect(lines[3] == "› 1) 딸기쥬스      재료 부족  ×1")
    #expect(lines[6] == "  4) 파인애플쥬스  5잔 가능")
    #expect(lines[10] == "  s) 재고수정")
    let availability = ["재료 부족", "5잔 가능", "3잔 가능", "5잔 가능", "1잔 가능", "3잔 가능", "5잔 가능"]
    for (line, text) in zip(lines[3...9], availability) {
      #expect(Self.column(of: text, in: line) == 19, "\(line)")
    }
    #expect(lines[23].hasPrefix("? 도움말  ↑↓ 고르기"))
  }

  @Test func unmakeableRowsAreDimmedAndTheChosenRowIsMarked() throws {
    let lines = try Self.renderer("en").render(
      ShopStateTests.seed(), size: TerminalSize(width: 80, height: 24))
    #expect(lines[3].style == .selected)
    #expect(lines[3].text.hasPrefix("› 1) Strawberry Juice"))
    #expect(lines[3].text.contains("out of fruit"))
    #expect(lines[4].style == .plain)
    #expect(lines[7].style == .plain)
    var state = ShopStateTests.seed()
    _ = state.handle(.down)
    let moved = try Self.renderer("en").render(state, size: TerminalSize(width: 80, height: 24))
    #expect(moved[3].style == .dimmed)
  }

  @Test func aNarrowScreenCutsLongNamesWithAnEllipsis() throws {
    var state = ShopStateTests.seed()
    _ = state.handle(.character("5"))
    let lines = try Self.renderer("en").render(state, size: TerminalSize(width: 40, height: 12))
    let row = try #require(lines.first { $0.text.hasPrefix("› 5)") })
    #expect(row.text.contains("…"))
    #expect(row.text.hasSuffix("×1"))
    #expect(row.text.displayWidth <= 40)
  }

  @Test func aLowScreenScrollsToTheChosenRowAndKeepsTheFooter() throws {
    var state = ShopStateTests.seed()
    _ = state.handle(.end)
    let lines = try Self.renderer("ko").render(state, size: TerminalSize(width: 40, height: 12))
    #expect(lines.count == 12)
    #expect(lines.contains { $0.text == "› s) 재고수정" })
    #expect(lines[11].text.hasPrefix("? 도움말  ↑↓ 고르기"))
  }

  @Test func theRefusalShowsTheMessageTheButtonsAndTheStatus() throws {
    let refused = Self.states()[1]
    let lines = try Self.renderer("ko").render(refused, size: TerminalSize(width: 80, height: 24))
      .map(\.text)
    #expect(lines.contains("재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 10개, 바나나 1개"))
    #expect(lines.contains("  [ 예 ]    아니오  "))
    #expect(lines[22] == "airport: 딸바쥬스 1잔")
    #expect(lines[23].hasPrefix("←→ 고르기"))
  }

  @Test func theStockScreenShowsSteppersAndTheTypedNumber() throws {
    let stock = Self.states()[2]
    let lines = try Self.renderer("ko").render(stock, size: TerminalSize(width: 80, height: 24))
      .map(\.text)
    #expect(lines[0] == "재고 추가")
    #expect(lines[2] == "› 딸기      −  1_ +")
    #expect(lines[3] == "  바나나    −  10 +")
    #expect(lines[7] == "  닫기 (Esc)")
  }

  /// The display column at which `text` starts in `line`.
  static func column(of text: String, in line: String) -> Int? {
    line.range(of: text).map { String(line[..<$0.lowerBound]).displayWidth }
  }

  @Test func aTooSmallScreenAsksForMoreRoom() throws {
    let lines = try Self.renderer("en").render(
      ShopStateTests.seed(), size: TerminalSize(width: 12, height: 4))
    #expect(lines.map(\.text).joined(separator: " ") == "Make the window at least 40×12.")
  }
}
