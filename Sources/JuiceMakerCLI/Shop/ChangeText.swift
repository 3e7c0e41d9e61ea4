import JuiceMakerKit

/// "airport: 딸바쥬스 1잔": one line saying what a shop did, for the status lines of the
/// shop screens and the HTTP API's events.
enum ChangeText {
  /// The line of a change, or `nil` for one that changed no level.
  static func line(
    _ operation: StockOperation, levels: [StockChange.Level], _ texts: Texts
  ) -> String? {
    guard !levels.isEmpty else { return nil }
    return describe(operation, levels: levels, texts)
  }

  /// The line of a journal entry; a refusal or a conflict says so after what was asked.
  static func line(_ entry: JournalEntry, _ texts: Texts) -> String {
    let asked = describe(entry.operation, levels: entry.changes, texts)
    switch entry.outcome {
    case .done: return asked
    case .refused, .conflict:
      return asked + " (" + texts.string("history.outcome." + entry.outcome.name) + ")"
    }
  }

  private static func describe(
    _ operation: StockOperation, levels: [StockChange.Level], _ texts: Texts
  ) -> String {
    let editor = Texts.shown(operation.editor)
    switch operation.action {
    case .order(let juice, let count):
      return texts.string(
        "tui.status.order", .string(editor), .string(texts.name(of: juice)), .int(count))
    case .add(let fruit, let count), .remove(let fruit, let count):
      guard !levels.isEmpty else {
        let sign = operation.action.name == "add" ? "+" : "-"
        return stock(editor, fruit, sign + String(count), texts)
      }
      return deltas(editor, levels, texts)
    case .set(let fruit, let level, _):
      guard !levels.isEmpty else { return stock(editor, fruit, "=" + String(level), texts) }
      return deltas(editor, levels, texts)
    case .limits(let fruit, let limits):
      return texts.string(
        "tui.status.limits", .string(editor), .string(texts.name(of: fruit)),
        .int(limits.minimum), .int(limits.par))
    }
  }

  private static func deltas(_ editor: String, _ levels: [StockChange.Level], _ texts: Texts)
    -> String
  {
    levels.map { level in
      let delta = level.after - level.before
      return stock(editor, level.fruit, (delta > 0 ? "+" : "") + String(delta), texts)
    }.joined(separator: ", ")
  }

  private static func stock(_ editor: String, _ fruit: Fruit.ID, _ amount: String, _ texts: Texts)
    -> String
  {
    texts.string(
      "tui.status.stock", .string(editor), .string(texts.name(of: fruit)), .string(amount))
  }
}
