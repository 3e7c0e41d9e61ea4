import FoundationEssentials
import JuiceMakerKit

/// `juice-maker history [--limit N] [--since TIME] [--shop NAME]`: the journal of orders and
/// stock edits, newest first, in columns aligned by display width, times in the local time
/// zone with its offset (UTC in `--json`); a refused row names what was short.
///
/// It reads the journal through `FruitStore`, so it works over any storage.
struct HistoryCommand: Command {
  static let limitOption = Option.number("limit", .positive)
  static let sinceOption = Option<Date>(
    spec: OptionSpec(name: "since", metavariable: "TIME"),
    convert: { text throws(CLIError) in try TimeText.date(from: text, for: "--since") })
  static let untilOption = Option<Date>(
    spec: OptionSpec(name: "until", metavariable: "TIME"),
    convert: { text throws(CLIError) in try TimeText.date(from: text, for: "--until") })
  static let definition = CommandDefinition(
    name: "history", options: [limitOption.spec, sinceOption.spec, untilOption.spec],
    showsOneLanguage: true, loadsMenu: true)

  private(set) var context: Context
  /// How many entries to show.
  let limit: Int
  /// Only entries at or after this date.
  let since: Date?
  /// Only entries before this date.
  let until: Date?
  /// Only entries of this shop: `--shop` when given on the command line.
  let shop: String?

  /// How many entries `history` shows without `--limit`.
  static let defaultLimit = 20

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    limit = try line.value(Self.limitOption) ?? Self.defaultLimit
    since = try line.value(Self.sinceOption)
    until = try line.value(Self.untilOption)
    shop = context.global.shopGiven ? context.global.shop : nil
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try context.openShop()
    // The rest speaks with the menu's strings, the store's published catalogs included.
    var command = self
    command.context = opened.context
    try command.show(opened.store, limit: limit)
  }

  /// Prints the newest `limit` entries of a store's journal.
  func show(_ store: FruitStore, limit: Int) throws(CLIError) {
    let entries: [JournalEntry]
    let query = JournalQuery(editor: shop, since: since, until: until, limit: limit)
    var matching = 0
    do {
      entries = try store.journal(query)
      // Counted only when the page is full: then more may match.
      matching = entries.count < limit ? entries.count : try store.journalCount(query)
    } catch {
      throw CLIError(error)
    }
    if context.json {
      context.emit(
        HistoryDocument(
          entries: entries.map { HistoryDocument.Entry($0) },
          more: matching - entries.count))
      return
    }
    let texts = context.texts
    if entries.isEmpty {
      // With a filter, an empty answer says nothing about the rest of the journal.
      context.say(
        texts.string(
          shop == nil && since == nil && until == nil ? "history.empty" : "history.noMatch"))
      return
    }
    let rows = entries.map { entry in
      let action = entry.operation.action
      let subject: String
      switch action {
      case .order(let juice, _): subject = texts.name(of: juice) + " ×" + String(action.count)
      case .add(let fruit, _), .remove(let fruit, _), .set(let fruit, _, _):
        subject = texts.name(of: fruit, count: action.count) + " ×" + String(action.count)
      case .limits(let fruit, _): subject = texts.name(of: fruit)
      }
      var detail = entry.changes.sorted { $0.fruit < $1.fruit }.map { change in
        let delta = change.after - change.before
        return texts.name(of: change.fruit, count: abs(delta)) + " " + (delta > 0 ? "+" : "")
          + String(delta)
      }.joined(separator: ", ")
      switch entry.outcome {
      case .refused(let shortages) where !shortages.isEmpty:
        detail = texts.string(
          LocalizationKey.orderShortages, .string(texts.localizer.phrase(for: shortages)))
      case .conflict(_, let expected, let actual):
        detail = texts.string("history.conflict", .int(expected), .int(actual))
      default: break
      }
      if case .limits(_, let limits) = action {
        detail = texts.string("stock.limits.detail", .int(limits.minimum), .int(limits.par))
      }
      return [
        Self.localTime(entry.date),
        texts.shown(entry.operation.editor),
        texts.string("history.kind." + action.name),
        subject,
        texts.string("history.outcome." + entry.outcome.name),
        detail,
      ]
    }
    // Columns aligned by display width (Hangul takes two columns), under a header row.
    var table = TextTable(
      header: ["time", "shop", "kind", "subject", "outcome", "detail"].map {
        texts.string("history.column." + $0)
      },
      alignments: Array(repeating: .left, count: 6))
    table.rows = rows
    for line in table.lines() { context.say(line) }
    if matching > entries.count {
      context.say(texts.string("history.more", .int(matching - entries.count)))
    }
  }

  /// A time as `history` shows it: local, to the second, with its offset, which UTC's
  /// is too (`+00:00`), so every row shows its offset the same way.
  static func localTime(_ date: Date) -> String {
    TimeText.text(date, offset: TimeText.localOffset(at: date), style: .second)
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
    /// The level a conflict found, where the compare-and-set expected `expected`.
    let actual: Int?
    /// An order's price of one juice, as it was when the order was made.
    let price: PriceDocument?
    /// The minimum and par a `limits` entry set.
    let limits: StockLimits?

    init(_ entry: JournalEntry) {
      let action = entry.operation.action
      id = entry.sequence
      request = entry.id.rawValue
      time = TimeText.text(entry.date, offset: 0, style: .isoUTC)
      shop = entry.operation.editor
      kind = action.name
      juice = action.juice?.rawValue
      fruit = action.fruit?.rawValue
      switch action {
      case .order(let juice, _): subject = juice.rawValue
      case .add(let fruit, _), .remove(let fruit, _), .set(let fruit, _, _), .limits(let fruit, _):
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
      if case .conflict(_, _, let found) = entry.outcome {
        actual = found
      } else {
        actual = nil
      }
      price = entry.operation.price.map(PriceDocument.init)
      if case .limits(_, let set) = action {
        limits = set
      } else {
        limits = nil
      }
    }
  }

  let entries: [Entry]
  /// How many more entries match than the page holds.
  let more: Int
}
