import Foundation
import JuiceMakerKit

/// The stock and journal tables of one connection, with every statement an
/// operation needs prepared once.
///
/// Not safe to share between threads: `SQLiteStockStorage` reaches it only through
/// its lock.
final class StockTables {
  private let database: Database
  /// The fruits levels are kept for, in level order.
  let fruits: [Fruit.ID]
  /// The level index of each fruit.
  private let order: [Fruit.ID: Int]
  /// The stock row id of each fruit, in level order.
  private let rows: [Int64]
  /// The level index of each stock row id; rows of fruits not held are absent.
  private let indices: [Int64: Int]
  /// The JSON key of each fruit, in level order.
  private let keys: [String]

  private let selectLevels: Statement
  private let updateLevel: Statement
  private let insertEntry: Statement
  private let selectRequest: Statement
  private let selectInitial: Statement
  private let dataVersion: Statement

  /// Prepares the statements and adds a row for each fruit the store lacks, with the
  /// fruit's initial stock.
  ///
  /// - Throws: `StockStorageError.invalid` when the tables do not have the schema's
  ///   columns or are damaged; `.unavailable` when missing rows cannot be added.
  init(database: Database, fruits: [Fruit]) throws(StockStorageError) {
    self.database = database
    self.fruits = fruits.map(\.id)
    self.keys = fruits.map { JournalCoding.key(of: $0.id) }
    var order: [Fruit.ID: Int] = [:]
    for (index, fruit) in fruits.enumerated() { order[fruit.id] = index }
    self.order = order
    selectLevels = try database.prepare(StoreStatements.selectLevels, purpose: "reading levels")
    updateLevel = try database.prepare(StoreStatements.updateLevel, purpose: "writing a level")
    insertEntry = try database.prepare(
      StoreStatements.insertEntry, purpose: "journaling an operation")
    selectRequest = try database.prepare(
      StoreStatements.selectRequest, purpose: "looking up a request id")
    selectInitial = try database.prepare(
      "SELECT fruit, initial FROM stock", purpose: "reading initial levels")
    dataVersion = try database.prepare(
      "PRAGMA data_version", purpose: "watching the store for changes")

    var ids = try Self.rowIDs(database)
    let missing = fruits.filter { ids[$0.id] == nil }
    if !missing.isEmpty {
      let insert = try database.prepare(
        "INSERT OR IGNORE INTO stock (fruit, level, initial) VALUES (?1, ?2, ?2)",
        purpose: "adding stock rows")
      try database.transaction { () throws(StockStorageError) in
        for fruit in missing {
          try insert.bind(fruit.id.rawValue, at: 1)
          try insert.bind(Int64(fruit.initialStock), at: 2)
          try insert.run()
        }
      }
      ids = try Self.rowIDs(database)
    }
    var rows: [Int64] = []
    var indices: [Int64: Int] = [:]
    for (index, fruit) in fruits.enumerated() {
      guard let id = ids[fruit.id] else {
        throw database.context.invalid(
          "the stock row of \(fruit.id) is missing", purpose: "reading stock rows")
      }
      rows.append(id)
      indices[id] = index
    }
    self.rows = rows
    self.indices = indices
    // Reads the journal's last page, where a truncated file is most often damaged.
    _ = try database.integer("SELECT max(id) FROM journal", purpose: "reading the journal")
  }

  private static func rowIDs(_ database: Database) throws(StockStorageError) -> [Fruit.ID: Int64] {
    let purpose = "reading stock rows"
    let select = try database.prepare("SELECT id, fruit FROM stock", purpose: purpose)
    var ids: [Fruit.ID: Int64] = [:]
    while try select.step() {
      guard let text = select.text(at: 1), let fruit = try? Fruit.ID(validating: text) else {
        throw database.context.invalid("a stock row has no valid fruit id", purpose: purpose)
      }
      ids[fruit] = select.integer(at: 0)
    }
    return ids
  }

  // MARK: - Levels

  /// Reads every level with one query.
  ///
  /// - Returns: One level per fruit, in the order of `fruits`.
  func levels() throws(StockStorageError) -> [Int] {
    defer { selectLevels.reset() }
    var levels = [Int](repeating: 0, count: fruits.count)
    var found = 0
    while try selectLevels.step() {
      if let index = indices[selectLevels.integer(at: 0)] {
        levels[index] = Int(selectLevels.integer(at: 1))
        found += 1
      }
    }
    guard found == fruits.count else {
      throw database.context.invalid(
        "stock rows have disappeared from the store", purpose: selectLevels.purpose)
    }
    return levels
  }

  /// Runs one `BEGIN IMMEDIATE` transaction: looks the request id up, reads the
  /// levels, and writes what `decide` returns, the changed rows and one journal entry.
  ///
  /// - Complexity: O(*n* + *c*) statements' work for *n* stock rows and *c* changed
  ///   levels.
  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry? {
    try database.transaction { () throws(StockStorageError) -> JournalEntry? in
      let journaled = try entry(for: id)
      let levels = StockLevels(try self.levels(), touching: touching)
      guard let commit = decide(StockTransaction(levels: levels, journaled: journaled)) else {
        return nil
      }
      for change in commit.changes {
        try updateLevel.bind(rows[change.index], at: 1)
        try updateLevel.bind(Int64(change.level.after), at: 2)
        try updateLevel.run()
      }
      // The date as the column keeps it, so a read gives back the same entry.
      let date = Date(timeIntervalSince1970: Date().timeIntervalSince1970)
      try bind(commit.operation, outcome: commit.outcome)
      try insertEntry.bind(date.timeIntervalSince1970, at: 2)
      try insertEntry.bind(JournalCoding.deltas(commit.changes, keys: keys), at: 12)
      try insertEntry.bind(JournalCoding.pairs(commit.changes, keys: keys), at: 13)
      try insertEntry.run()
      return commit.entry(sequence: database.lastInsertedRow, date: date)
    }
  }

  private func bind(_ operation: StockOperation, outcome: StockOutcome) throws(StockStorageError) {
    let statement = insertEntry
    try statement.bind(operation.id.rawValue, at: 1)
    try statement.bind(operation.editor, at: 3)
    try statement.bind(operation.action.name, at: 4)
    if let juice = operation.action.juice {
      try statement.bind(juice.rawValue, at: 5)
    } else {
      try statement.bindNull(at: 5)
    }
    if let fruit = operation.action.fruit {
      try statement.bind(fruit.rawValue, at: 6)
    } else {
      try statement.bindNull(at: 6)
    }
    try statement.bind(Int64(operation.action.count), at: 7)
    if case .set(_, _, let expected?) = operation.action {
      try statement.bind(Int64(expected), at: 8)
    } else {
      try statement.bindNull(at: 8)
    }
    try statement.bind(outcome.name, at: 9)
    switch outcome {
    case .done:
      try statement.bindNull(at: 10)
      try statement.bindNull(at: 11)
    case .refused(let shortages):
      try statement.bindNull(at: 10)
      try statement.bind(JournalCoding.shortages(shortages), at: 11)
    case .conflict(_, _, let actual):
      try statement.bind(Int64(actual), at: 10)
      try statement.bindNull(at: 11)
    }
  }

  // MARK: - Journal

  /// The journal entries `query` selects, newest first.
  func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry] {
    var conditions: [String] = []
    if query.editor != nil { conditions.append("editor = ?1") }
    if query.since != nil { conditions.append("time >= ?2") }
    if query.after != nil { conditions.append("id > ?3") }
    if query.request != nil { conditions.append("request = ?5") }
    let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    let select = try database.prepare(
      "SELECT \(StoreStatements.entryColumns) FROM journal \(filter) ORDER BY id DESC LIMIT ?4",
      purpose: "reading the journal")
    if let editor = query.editor { try select.bind(editor, at: 1) }
    if let since = query.since { try select.bind(since.timeIntervalSince1970, at: 2) }
    if let after = query.after { try select.bind(after, at: 3) }
    if let request = query.request { try select.bind(request.rawValue, at: 5) }
    try select.bind(Int64(query.limit.map { max(0, $0) } ?? -1), at: 4)
    var entries: [JournalEntry] = []
    while try select.step() {
      entries.append(try entry(select))
    }
    return entries
  }

  /// The entry of a request id, if journaled.
  func entry(for id: RequestID) throws(StockStorageError) -> JournalEntry? {
    defer { selectRequest.reset() }
    try selectRequest.bind(id.rawValue, at: 1)
    guard try selectRequest.step() else { return nil }
    return try entry(selectRequest)
  }

  /// The entry on the current row of a statement selecting `entryColumns`.
  private func entry(_ row: Statement) throws(StockStorageError) -> JournalEntry {
    let sequence = row.integer(at: 0)
    let damaged = database.context.invalid(
      "journal entry \(sequence) is damaged", purpose: row.purpose)
    guard let requestText = row.text(at: 1), let request = try? RequestID(validating: requestText),
      let editor = row.text(at: 3), let kind = row.text(at: 4),
      let outcomeName = row.text(at: 9),
      let changes = row.text(at: 12).flatMap({ JournalCoding.levels($0, order: order) })
    else { throw damaged }
    let count = Int(row.integer(at: 7))
    let action: StockOperation.Action
    if kind == "order" {
      guard let text = row.text(at: 5), let juice = try? Juice.ID(validating: text) else {
        throw damaged
      }
      action = .order(juice, count: count)
    } else {
      guard let text = row.text(at: 6), let fruit = try? Fruit.ID(validating: text) else {
        throw damaged
      }
      switch kind {
      case "add": action = .add(fruit, count: count)
      case "remove": action = .remove(fruit, count: count)
      case "set":
        action = .set(
          fruit, level: count, expected: row.isNull(at: 8) ? nil : Int(row.integer(at: 8)))
      default: throw damaged
      }
    }
    let outcome: StockOutcome
    switch outcomeName {
    case "done": outcome = .done
    case "refused":
      guard let shortages = row.text(at: 11).flatMap(JournalCoding.shortages) else {
        throw damaged
      }
      outcome = .refused(shortages)
    case "conflict":
      guard let fruit = action.fruit, case .set(_, _, let expected?) = action,
        !row.isNull(at: 10)
      else { throw damaged }
      outcome = .conflict(fruit: fruit, expected: expected, actual: Int(row.integer(at: 10)))
    default: throw damaged
    }
    return JournalEntry(
      sequence: sequence, date: Date(timeIntervalSince1970: row.double(at: 2)),
      operation: StockOperation(id: request, editor: editor, action: action), outcome: outcome,
      changes: changes)
  }

  /// The level every stock row was created with, including rows of fruits not held.
  func initialLevels() throws(StockStorageError) -> [Fruit.ID: Int] {
    defer { selectInitial.reset() }
    var levels: [Fruit.ID: Int] = [:]
    while try selectInitial.step() {
      guard let text = selectInitial.text(at: 0), let fruit = try? Fruit.ID(validating: text)
      else {
        throw database.context.invalid(
          "a stock row has no valid fruit id", purpose: selectInitial.purpose)
      }
      levels[fruit] = Int(selectInitial.integer(at: 1))
    }
    return levels
  }

  /// SQLite's `data_version`: it changes when another connection commits.
  func changeCounter() throws(StockStorageError) -> Int64 {
    defer { dataVersion.reset() }
    guard try dataVersion.step() else {
      throw database.context.invalid(
        "PRAGMA data_version returned no row", purpose: dataVersion.purpose)
    }
    return dataVersion.integer(at: 0)
  }
}
