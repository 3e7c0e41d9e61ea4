import JuiceMakerKit

/// Draws the full-screen shop: a pure function from the state and the terminal's size to
/// the rows of the screen.
///
/// Every row is laid out by display columns and fits the width; names too long for it
/// end in "…". When the rows do not fit the height, the list scrolls to keep the chosen
/// row in view, and the title, the message, the status line and the key line stay.
struct ShopRenderer: Sendable {
  /// The smallest screen the shop is laid out for; a smaller one shows only a request
  /// to make the window larger.
  static let smallest = TerminalSize(width: 40, height: 12)
  /// The narrowest and lowest screen anything is drawn on.
  static let tiniest = TerminalSize(width: 20, height: 6)

  private let texts: Texts
  private let juiceNames: [String]
  private let fruitNames: [String]
  /// Each juice's price as the language writes it, right-aligned; empty when the menu
  /// has no prices.
  private let prices: [String]
  /// Each fruit's limits, for the low marks on the stock board.
  private let limits: [StockLimits?]

  /// Creates a renderer.
  ///
  /// - Parameters:
  ///   - texts: The words, in the chosen language.
  ///   - juices: The menu's juices, in menu order.
  ///   - fruits: The store's fruits, in level order.
  ///   - prices: Each juice's price, in menu order; empty or `nil` for none.
  ///   - limits: Each fruit's minimum and par, in level order; empty for none.
  init(
    texts: Texts, juices: [Juice.ID], fruits: [Fruit.ID], prices: [Money?] = [],
    limits: [StockLimits?] = []
  ) {
    self.texts = texts
    self.limits = limits
    juiceNames = juices.map { texts.name(of: $0) }
    fruitNames = fruits.map { texts.name(of: $0) }
    let shown = prices.map { $0.map(texts.price) ?? "" }
    let width = shown.map(\.displayWidth).max() ?? 0
    self.prices =
      width == 0
      ? [] : shown.map { String(repeating: " ", count: width - $0.displayWidth) + $0 }
  }

  /// The rows of the screen, at most `size.height` of them, none wider than
  /// `size.width`.
  func render(_ state: ShopState, size: TerminalSize) -> [ScreenLine] {
    let width = size.width
    guard width >= Self.tiniest.width, size.height >= Self.tiniest.height else {
      let request = texts.string(
        "tui.tooSmall", .int(Self.smallest.width), .int(Self.smallest.height))
      return request.wrapped(to: width).prefix(size.height).map { ScreenLine($0, .bad) }
    }
    var top: [ScreenLine]
    var list: [ScreenLine]
    var chosen: Int
    switch state.screen {
    case .order:
      top = [ScreenLine(texts.string(LocalizationKey.orderScreenTitle), .title)]
      top += board(state.levels, width: width).map { ScreenLine($0) }
      (list, chosen) = (orderRows(state, width: width), state.orderRow)
    case .stock:
      top = [ScreenLine(texts.string(LocalizationKey.stockScreenTitle), .title)]
      (list, chosen) = (stockRows(state, width: width), state.stockRow)
    }
    var hint: String
    switch state.screen {
    case .order: hint = texts.string("tui.hint.order")
    case .stock: hint = texts.string("tui.hint.stock")
    }
    var bottom: [ScreenLine] = []
    if state.showsKeys {
      top = [ScreenLine(texts.string("tui.keys.title"), .title)]
      (list, chosen) = (keyRows(state.screen).map { ScreenLine($0) }, 0)
      hint = texts.string("tui.hint.keys")
    } else if let dialog = state.dialog {
      let question: String
      switch dialog {
      case .editStock(let message, _): question = message
      case .quitWithTypedNumber: question = texts.string("tui.quitTyped")
      case .quitWithWaitingRequests(let count):
        question = texts.string("tui.quitWaiting", .int(count))
      }
      bottom += question.wrapped(to: width).map { ScreenLine($0, .bad) }
      bottom.append(ScreenLine(buttons(yesChosen: state.yesChosen)))
      hint = texts.string("tui.hint.dialog")
    } else if let message = state.message {
      let style: ScreenLine.Style =
        switch message.kind {
        case .good: .good
        case .bad: .bad
        case .info: .plain
        }
      bottom += message.text.wrapped(to: width).map { ScreenLine($0, style) }
    }
    bottom.append(ScreenLine(state.status ?? "", .status))
    bottom.append(ScreenLine(hint))
    return Self.compose(top: top, list: list, chosen: chosen, bottom: bottom, size: size)
  }

  // MARK: - Parts

  /// The stock board, "딸기 10 · 바나나 9 · …", broken between fruits to fit the width.
  private func board(_ levels: [Int], width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for (index, (name, level)) in zip(fruitNames, levels).enumerated() {
      let low = index < limits.count && limits[index]?.isLow(level) == true
      let item = name + " " + String(level) + (low ? " " + texts.string("stock.low.mark") : "")
      let candidate = line.isEmpty ? item : line + " · " + item
      if candidate.displayWidth <= width || line.isEmpty {
        line = candidate
      } else {
        lines.append(line)
        line = item
      }
    }
    lines.append(line)
    return lines
  }

  private func orderRows(_ state: ShopState, width: Int) -> [ScreenLine] {
    let numberWidth = String(state.juiceCount).count
    let availability = state.makeable.map { makeable in
      makeable > 0
        ? texts.string("menu.makeable", .int(makeable)) : texts.string("tui.unavailable")
    }
    let availabilityWidth = availability.map(\.displayWidth).max() ?? 0
    let countField = texts.string("tui.count", .int(state.count))
    let priceWidth = prices.first.map { $0.displayWidth + 2 } ?? 0
    let fixed =
      2 + numberWidth + 2 + 2 + priceWidth + availabilityWidth + 2 + countField.displayWidth
    let longest = juiceNames.map(\.displayWidth).max() ?? 0
    let nameWidth = max(4, min(longest, width - fixed))
    var rows: [ScreenLine] = []
    for index in 0..<state.juiceCount {
      let chosen = index == state.orderRow
      let number = String(index + 1)
      var text =
        (chosen ? "› " : "  ") + String(repeating: " ", count: numberWidth - number.count)
        + number + ") " + juiceNames[index].fitted(to: nameWidth) + "  "
      if index < prices.count { text += prices[index] + "  " }
      text +=
        chosen
        ? availability[index].padded(to: availabilityWidth) + "  " + countField
        : availability[index]
      let style: ScreenLine.Style =
        chosen ? .selected : state.makeable[index] > 0 ? .plain : .dimmed
      rows.append(ScreenLine(text.truncated(to: width), style))
    }
    let chosen = state.orderRow == state.juiceCount
    rows.append(
      ScreenLine(
        ((chosen ? "› " : "  ") + String(repeating: " ", count: numberWidth - 1) + "s) "
          + texts.string(LocalizationKey.editStockButton)).truncated(to: width),
        chosen ? .selected : .plain))
    return rows
  }

  private func stockRows(_ state: ShopState, width: Int) -> [ScreenLine] {
    let levelWidth = max(
      3, state.levels.map { String($0).count }.max() ?? 0, state.typed.count + 1)
    let fixed = 2 + 2 + 2 + levelWidth + 2
    let longest = fruitNames.map(\.displayWidth).max() ?? 0
    let nameWidth = max(4, min(longest, width - fixed))
    var rows: [ScreenLine] = []
    for index in 0..<state.fruitCount {
      let chosen = index == state.stockRow
      let shown =
        chosen && !state.typed.isEmpty ? state.typed + "_" : String(state.levels[index])
      let level = String(repeating: " ", count: max(0, levelWidth - shown.count)) + shown
      let text =
        (chosen ? "› " : "  ") + fruitNames[index].fitted(to: nameWidth) + "  − " + level + " +"
      rows.append(ScreenLine(text.truncated(to: width), chosen ? .selected : .plain))
    }
    let chosen = state.stockRow == state.fruitCount
    let close = texts.string("tui.close", .string(texts.string(LocalizationKey.closeButton)))
    rows.append(
      ScreenLine(((chosen ? "› " : "  ") + close).truncated(to: width), chosen ? .selected : .plain)
    )
    return rows
  }

  private func keyRows(_ screen: ShopState.Screen) -> [String] {
    let edit = texts.string(LocalizationKey.editStockButton)
    let close = texts.string(LocalizationKey.closeButton)
    switch screen {
    case .order:
      return [
        texts.string("tui.keys.choose"), texts.string("tui.keys.count"),
        texts.string("tui.keys.order"), texts.string("tui.keys.stock", .string(edit)),
        texts.string("tui.keys.quit"),
      ]
    case .stock:
      return [
        texts.string("tui.keys.choose"), texts.string("tui.keys.step"),
        texts.string("tui.keys.page"), texts.string("tui.keys.type"),
        texts.string("tui.keys.close", .string(close)), texts.string("tui.keys.quit"),
      ]
    }
  }

  /// "[ 예 ]   아니오  ": the chosen answer in brackets.
  private func buttons(yesChosen: Bool) -> String {
    let yes = texts.string(LocalizationKey.yes)
    let no = texts.string(LocalizationKey.no)
    return "  " + (yesChosen ? "[ \(yes) ]" : "  \(yes)  ") + "  "
      + (yesChosen ? "  \(no)  " : "[ \(no) ]")
  }

  // MARK: - Layout

  /// Stacks the parts, scrolling the list when the screen is too low for all of it, and
  /// cuts every row to the width. The last two rows of `bottom` (the status line and the
  /// key line) go to the foot of the screen.
  static func compose(
    top: [ScreenLine], list: [ScreenLine], chosen: Int, bottom: [ScreenLine], size: TerminalSize
  ) -> [ScreenLine] {
    let room = size.height - top.count - bottom.count
    var lines = top
    if room >= list.count + 2 {
      lines += [.blank] + list + [.blank]
    } else if room >= list.count + 1 {
      lines += [.blank] + list
    } else if room > 0 {
      let first = max(0, min(chosen - room / 2, list.count - room))
      lines += list[first..<(first + room)]
    }
    // The status line and the key line stay at the foot of the screen.
    let footer = min(2, bottom.count)
    lines += bottom.dropLast(footer)
    if lines.count + footer < size.height {
      lines += Array(repeating: .blank, count: size.height - lines.count - footer)
    }
    lines += bottom.suffix(footer)
    return lines.prefix(size.height).map { line in
      ScreenLine(line.text.truncated(to: size.width), line.style)
    }
  }
}
