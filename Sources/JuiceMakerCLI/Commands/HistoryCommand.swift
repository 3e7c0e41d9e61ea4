import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

/// `juice-maker history [--limit N]`: the journal of orders and stock edits, newest first.
struct HistoryCommand: Command {
  static let limitOption = Option.number("limit", .positive)
  static let definition = CommandDefinition(name: "history", options: [limitOption.spec])

  let context: Context
  /// How many entries to show.
  let limit: Int

  /// How many entries `history` shows without `--limit`.
  static let defaultLimit = 20

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    limit = try line.value(Self.limitOption) ?? Self.defaultLimit
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let catalog = try context.loadCatalog()
    let (_, storage) = try context.openStore(for: catalog)
    let entries: [JournalEntry]
    do {
      entries = try storage.journal(limit: limit)
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
      let subject: String
      switch entry.kind {
      case .order: subject = texts.name(of: Juice.ID(entry.subject))
      case .add, .remove, .set: subject = texts.name(of: Fruit.ID(entry.subject))
      }
      let changes = entry.changes.sorted { $0.key < $1.key }.map { fruit, delta in
        texts.name(of: fruit) + " " + (delta > 0 ? "+" : "") + String(delta)
      }
      let line = [
        formatter.string(from: entry.time),
        texts.shown(entry.shop),
        texts.string("history.kind." + entry.kind.rawValue),
        subject + " ×" + String(entry.count),
        texts.string(entry.outcome == .done ? "history.outcome.done" : "history.outcome.refused"),
        changes.joined(separator: ", "),
      ]
      context.say(line.joined(separator: "  "))
    }
  }
}

/// `{"entries":[…]}`.
struct HistoryDocument: Encodable {
  struct Entry: Encodable {
    let id: Int64
    let time: String
    let shop: String
    let kind: String
    let subject: String
    let count: Int
    let outcome: String
    let changes: [String: Int]

    /// - Parameter formatter: Shared by all entries; making one per entry cost more
    ///   than the rest of the document.
    init(_ entry: JournalEntry, formatter: ISO8601DateFormatter) {
      id = entry.id
      time = formatter.string(from: entry.time)
      shop = entry.shop
      kind = entry.kind.rawValue
      subject = entry.subject
      count = entry.count
      outcome = entry.outcome == .done ? "done" : "refused"
      changes = Dictionary(uniqueKeysWithValues: entry.changes.map { ($0.key.rawValue, $0.value) })
    }
  }

  let entries: [Entry]
}
