import Foundation
import JuiceMakerKit

/// `juice-maker history [--limit N]`: the journal of orders and stock edits, newest first.
///
/// It reads the journal through `FruitStore`, so it works over any storage.
struct HistoryCommand {
  let context: Context

  /// How many entries `history` shows without `--limit`.
  static let defaultLimit = 20

  func run() throws(CLIError) {
    _ = try context.arguments([], command: "history")
    let limit =
      try context.invocation["limit"].map { text throws(CLIError) in
        try Quantity.parse(text, for: "--limit", .positive)
      } ?? Self.defaultLimit
    let catalog = try context.loadCatalog()
    let store = try context.openStore(for: catalog)
    try show(store, limit: limit)
  }

  /// Prints the newest `limit` entries of a store's journal.
  func show(_ store: FruitStore, limit: Int) throws(CLIError) {
    let entries: [JournalEntry]
    do {
      entries = try store.journal(JournalQuery(limit: limit))
    } catch {
      throw CLIError(error)
    }
    if context.json {
      let formatter = ISO8601DateFormatter()
      context.emit(
        HistoryDocument(entries: entries.map { HistoryDocument.Entry($0, formatter: formatter) }))
      return
    }
    let texts = context.texts
    if entries.isEmpty {
      context.say(texts.string("history.empty"))
      return
    }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate, .withFullTime, .withSpaceBetweenDateAndTime]
    formatter.timeZone = TimeZone.current
    for entry in entries {
      let action = entry.operation.action
      let subject: String
      switch action {
      case .order(let juice, _): subject = texts.name(of: juice)
      case .add(let fruit, _), .remove(let fruit, _), .set(let fruit, _, _):
        subject = texts.name(of: fruit)
      }
      let changes = entry.changes.sorted { $0.fruit < $1.fruit }.map { change in
        let delta = change.after - change.before
        return texts.name(of: change.fruit) + " " + (delta > 0 ? "+" : "") + String(delta)
      }
      let line = [
        formatter.string(from: entry.date),
        Texts.shown(entry.operation.editor),
        texts.string("history.kind." + action.name),
        subject + " ×" + String(action.count),
        texts.string("history.outcome." + entry.outcome.name),
        changes.joined(separator: ", "),
      ]
      context.say(line.joined(separator: "  "))
    }
  }
}

/// `{"entries":[…]}`.
struct HistoryDocument: Encodable {
  struct Entry: Encodable {
    struct Level: Encodable {
      let before: Int
      let after: Int
    }

    let id: Int64
    let request: String
    let time: String
    let shop: String
    let kind: String
    let subject: String
    let juice: String?
    let fruit: String?
    let count: Int
    let expected: Int?
    let outcome: String
    let changes: [String: Int]
    let levels: [String: Level]
    let shortages: [Shortage]?

    /// - Parameter formatter: Shared by all entries; making one per entry cost more
    ///   than the rest of the document.
    init(_ entry: JournalEntry, formatter: ISO8601DateFormatter) {
      let action = entry.operation.action
      id = entry.sequence
      request = entry.id.rawValue
      time = formatter.string(from: entry.date)
      shop = entry.operation.editor
      kind = action.name
      juice = action.juice?.rawValue
      fruit = action.fruit?.rawValue
      switch action {
      case .order(let juice, _): subject = juice.rawValue
      case .add(let fruit, _), .remove(let fruit, _), .set(let fruit, _, _):
        subject = fruit.rawValue
      }
      count = action.count
      if case .set(_, _, let expected) = action {
        self.expected = expected
      } else {
        expected = nil
      }
      outcome = entry.outcome.name
      changes = Dictionary(
        uniqueKeysWithValues: entry.changes.map { ($0.fruit.rawValue, $0.after - $0.before) })
      levels = Dictionary(
        uniqueKeysWithValues: entry.changes.map {
          ($0.fruit.rawValue, Level(before: $0.before, after: $0.after))
        })
      if case .refused(let shortages) = entry.outcome {
        self.shortages = shortages
      } else {
        shortages = nil
      }
    }
  }

  let entries: [Entry]
}
