package import FoundationEssentials
package import JuiceMakerCatalog

/// One journal entry in the columns every persistent storage keeps: the one journal
/// model, and its one codec.
///
/// SQLite and PostgreSQL stores keep the same columns with the same meanings, each in
/// its engine's types (`time` is seconds since 1970 in SQLite, a `timestamptz` in
/// PostgreSQL; the JSON columns are `TEXT` and `jsonb`):
///
/// | Column | Meaning |
/// | --- | --- |
/// | `sequence` | The entry's number; later entries have larger numbers. |
/// | `request_id` | The operation's idempotency id, unique. |
/// | `time` | When the operation was kept. |
/// | `editor` | The shop or editor that made it. |
/// | `action` | `order`, `add`, `remove`, `set` or `limits`. |
/// | `subject` | The juice of an order, the fruit of an edit. |
/// | `count` | Juices ordered, fruits added or removed, the level set, or the minimum. |
/// | `expected` | A compare-and-set's expected level, else `NULL`. |
/// | `outcome` | `done`, `refused` or `conflict`. |
/// | `actual` | The level a conflict found, else `NULL`. |
/// | `shortages` | A refusal's shortages, `[["kiwi",3,1]]` (fruit, needed, available), else `NULL`. |
/// | `changes` | Each changed level, `[["kiwi",10,7]]` (fruit, before, after); `[]` for none. |
/// | `price` | An order's price of one juice, in the currency's smallest unit, else `NULL`. |
/// | `currency` | The ISO 4217 code of `price`, else `NULL`. |
/// | `used` | The fruit a made order withdrew, Σ (before − after) of `changes`; else 0. |
/// | `par` | A `limits` entry's par level (`count` is its minimum), else `NULL`. |
///
/// `used` repeats what `changes` holds, in a column a report can sum with `GROUP BY`
/// without reading the JSON of every entry.
///
/// For every fruit, `level = initial + Σ (after − before)` over the journal's changes.
package struct JournalRow: Hashable, Sendable {
  package var sequence: Int64
  package var requestID: String
  package var time: Date
  package var editor: String
  package var action: String
  package var subject: String
  package var count: Int64
  package var expected: Int64?
  package var outcome: String
  package var actual: Int64?
  package var shortages: String?
  package var changes: String
  package var price: Int64?
  package var currency: String?
  package var used: Int64 = 0
  package var par: Int64?

  /// The column names, in the order of the properties.
  package static let columns = [
    "sequence", "request_id", "time", "editor", "action", "subject", "count", "expected",
    "outcome", "actual", "shortages", "changes", "price", "currency", "used", "par",
  ]

  /// The row of a commit, before the storage numbers and dates it.
  ///
  /// - Parameters:
  ///   - commit: What a transaction commits.
  ///   - sequence: The entry's number, when the storage knows it before writing.
  ///   - time: When the storage keeps it.
  package init(_ commit: StockCommit, sequence: Int64 = 0, time: Date = Date()) {
    let operation = commit.operation
    self.sequence = sequence
    requestID = operation.id.rawValue
    self.time = time
    editor = operation.editor
    action = operation.action.name
    subject = operation.action.juice?.rawValue ?? operation.action.fruit?.rawValue ?? ""
    count = Int64(operation.action.count)
    if case .set(_, _, let expected?) = operation.action {
      self.expected = Int64(expected)
    }
    if case .limits(_, let limits) = operation.action {
      par = Int64(limits.par)
    }
    outcome = commit.outcome.name
    switch commit.outcome {
    case .done: break
    case .refused(let list):
      // Ids are letters, digits and hyphens: nothing to escape.
      shortages =
        "["
        + list.map { "[\"\($0.fruit.rawValue)\",\($0.needed),\($0.available)]" }
        .joined(separator: ",") + "]"
    case .conflict(_, _, let found):
      actual = Int64(found)
    }
    changes =
      "["
      + commit.changes.map {
        "[\"\($0.level.fruit.rawValue)\",\($0.level.before),\($0.level.after)]"
      }
      .joined(separator: ",") + "]"
    if let price = operation.price {
      self.price = price.minorUnits
      currency = price.currency.code
    }
    if case .order = operation.action, commit.outcome == .done {
      used = commit.changes.reduce(0) { $0 + Int64($1.level.before - $1.level.after) }
    }
  }

  /// A row as read from a store's columns.
  package init(
    sequence: Int64, requestID: String, time: Date, editor: String, action: String,
    subject: String, count: Int64, expected: Int64?, outcome: String, actual: Int64?,
    shortages: String?, changes: String, price: Int64? = nil, currency: String? = nil,
    used: Int64 = 0, par: Int64? = nil
  ) {
    self.price = price
    self.currency = currency
    self.used = used
    self.par = par
    self.sequence = sequence
    self.requestID = requestID
    self.time = time
    self.editor = editor
    self.action = action
    self.subject = subject
    self.count = count
    self.expected = expected
    self.outcome = outcome
    self.actual = actual
    self.shortages = shortages
    self.changes = changes
  }

  /// A row that does not hold a journal entry.
  package struct Damage: Error, Hashable, Sendable {
    /// The damaged entry's number.
    package let sequence: Int64
    /// What is wrong, such as `changes is not a list of [fruit, before, after]`.
    package let problem: String

    /// `journal entry 7 is damaged: …`.
    package var message: String { "journal entry \(sequence) is damaged: \(problem)" }
  }

  /// The journal entry the row holds.
  ///
  /// - Parameter order: The level index of each fruit the storage holds; changes are
  ///   listed in level order, fruits it does not hold last.
  /// - Throws: `Damage` naming what is wrong when a column does not hold what the
  ///   model says.
  package func entry(order: [Fruit.ID: Int]) throws(Damage) -> JournalEntry {
    func damaged(_ problem: String) -> Damage { Damage(sequence: sequence, problem: problem) }
    guard let request = try? RequestID(validating: requestID) else {
      throw damaged("request_id is not a request id")
    }
    guard count >= 0, count <= Int64(Int.max) else { throw damaged("count is out of range") }
    let count = Int(count)
    let action: StockOperation.Action
    if self.action == "order" {
      guard let juice = try? Juice.ID(validating: subject) else {
        throw damaged("subject is not a juice id")
      }
      action = .order(juice, count: count)
    } else {
      guard let fruit = try? Fruit.ID(validating: subject) else {
        throw damaged("subject is not a fruit id")
      }
      switch self.action {
      case "add": action = .add(fruit, count: count)
      case "remove": action = .remove(fruit, count: count)
      case "set": action = .set(fruit, level: count, expected: expected.map { Int($0) })
      case "limits":
        guard let par, par >= Int64(count), par <= Int64(Int.max) else {
          throw damaged("limits without a par level at or above the minimum")
        }
        action = .limits(fruit, StockLimits(minimum: count, par: Int(par)))
      default: throw damaged("action \(self.action) is unknown")
      }
    }
    let outcome: StockOutcome
    switch self.outcome {
    case "done": outcome = .done
    case "refused":
      guard let text = shortages, let triples = Self.triples(text) else {
        throw damaged("shortages is not a list of [fruit, needed, available]")
      }
      outcome = .refused(
        triples.map { Shortage(fruit: $0.fruit, needed: $0.first, available: $0.second) })
    case "conflict":
      guard let fruit = action.fruit, case .set(_, _, let expected?) = action, let actual else {
        throw damaged("a conflict without its fruit, expected or actual level")
      }
      outcome = .conflict(fruit: fruit, expected: expected, actual: Int(actual))
    default: throw damaged("outcome \(self.outcome) is unknown")
    }
    guard let triples = Self.triples(changes) else {
      throw damaged("changes is not a list of [fruit, before, after]")
    }
    let levels = triples.map {
      StockChange.Level(fruit: $0.fruit, before: $0.first, after: $0.second)
    }
    var money: Money?
    if let price {
      guard price >= 0, let code = currency, let currency = try? Currency(code: code) else {
        throw damaged("price is negative or has no valid currency")
      }
      money = Money(minorUnits: price, currency: currency)
    }
    return JournalEntry(
      sequence: sequence, date: time,
      operation: StockOperation(id: request, editor: editor, action: action, price: money),
      outcome: outcome,
      changes: levels.sorted { (order[$0.fruit] ?? Int.max) < (order[$1.fruit] ?? Int.max) })
  }

  /// Parses `[["kiwi",10,7],…]`, with any white space a JSON writer puts in.
  ///
  /// - Returns: Each fruit with its two numbers, or `nil` for anything else.
  private static func triples(_ text: String) -> [(fruit: Fruit.ID, first: Int, second: Int)]? {
    guard let node = try? JSONParser.parse(Array(text.utf8)), case .array(let items) = node.value
    else { return nil }
    var triples: [(fruit: Fruit.ID, first: Int, second: Int)] = []
    for item in items {
      guard case .array(let parts) = item.value, parts.count == 3,
        case .string(let name) = parts[0].value, let fruit = try? Fruit.ID(validating: name),
        case .number(let first) = parts[1].value, let firstNumber = Int(first),
        case .number(let second) = parts[2].value, let secondNumber = Int(second)
      else { return nil }
      triples.append((fruit, firstNumber, secondNumber))
    }
    return triples
  }
}
