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
  /// The stock row id of each fruit, in level order.
  private let rows: [Int64]
  /// The level index of each stock row id; rows of fruits not held are absent.
  private let indices: [Int64: Int]
  /// The JSON key of each fruit, in level order.
  private let keys: [String]

  private let selectLevels: Statement
  private let updateLevel: Statement
  private let insertEntry: Statement
  private let selectJournal: Statement
  private let selectInitial: Statement

  /// Prepares the statements and adds a row for each fruit the store lacks, with the
  /// fruit's initial stock.
  ///
  /// - Throws: `StockStorageError.invalid` when the tables do not have the schema's
  ///   columns or are damaged; `.unavailable` when missing rows cannot be added.
  init(database: Database, fruits: [Fruit]) throws(StockStorageError) {
    self.database = database
    self.fruits = fruits.map(\.id)
    self.keys = fruits.map { JournalCoding.key(of: $0.id) }
    selectLevels = try database.prepare("SELECT id, level FROM stock")
    updateLevel = try database.prepare("UPDATE stock SET level = ?2 WHERE id = ?1")
    insertEntry = try database.prepare(
      """
      INSERT INTO journal (time, shop, kind, subject, count, outcome, changes)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      """)
    selectJournal = try database.prepare(
      """
      SELECT id, time, shop, kind, subject, count, outcome, changes
      FROM journal ORDER BY id DESC LIMIT ?1
      """)
    selectInitial = try database.prepare("SELECT fruit, initial FROM stock")

    var ids = try Self.rowIDs(database)
    let missing = fruits.filter { ids[$0.id] == nil }
    if !missing.isEmpty {
      let insert = try database.prepare(
        "INSERT OR IGNORE INTO stock (fruit, level, initial) VALUES (?1, ?2, ?2)")
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
        throw .invalid(path: database.path, detail: "the stock row of \(fruit.id) is missing")
      }
      rows.append(id)
      indices[id] = index
    }
    self.rows = rows
    self.indices = indices
    // Reads the journal's last page, where a truncated file is most often damaged.
    _ = try database.integer("SELECT max(id) FROM journal")
  }

  private static func rowIDs(_ database: Database) throws(StockStorageError) -> [Fruit.ID: Int64] {
    let select = try database.prepare("SELECT id, fruit FROM stock")
    var ids: [Fruit.ID: Int64] = [:]
    while try select.step() {
      guard let fruit = select.text(at: 1) else {
        throw .invalid(path: database.path, detail: "a stock row has no fruit")
      }
      ids[Fruit.ID(fruit)] = select.integer(at: 0)
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
      throw .invalid(path: database.path, detail: "stock rows have disappeared from the store")
    }
    return levels
  }

  /// Runs one operation in one `BEGIN IMMEDIATE` transaction: reads the levels,
  /// lets `body` change them, writes the changed rows and one journal entry.
  ///
  /// - Complexity: O(*n* + *c*) statements' work for *n* stock rows and *c* changed
  ///   levels.
  func perform<Result>(
    _ operation: StockOperation,
    _ body: (inout [Int]) -> (Result, StockOutcome)
  ) throws(StockStorageError) -> Result {
    try database.transaction { () throws(StockStorageError) -> Result in
      let before = try levels()
      var levels = before
      let (result, outcome) = body(&levels)
      if outcome == .rejected {
        return result
      }
      guard levels.count == before.count else {
        throw .invalid(
          path: database.path,
          detail: "an operation returned \(levels.count) levels for \(before.count) fruits")
      }
      var changes = "{"
      for index in levels.indices where levels[index] != before[index] {
        guard levels[index] >= 0 else {
          throw .invalid(
            path: database.path,
            detail: "an operation would leave \(fruits[index]) at \(levels[index]); "
              + "stock never goes below zero")
        }
        try updateLevel.bind(rows[index], at: 1)
        try updateLevel.bind(Int64(levels[index]), at: 2)
        try updateLevel.run()
        if changes.count > 1 { changes += "," }
        changes += keys[index]
        changes += String(levels[index] - before[index])
      }
      changes += "}"
      try insertEntry.bind(Date().timeIntervalSince1970, at: 1)
      try insertEntry.bind(operation.shop, at: 2)
      try insertEntry.bind(operation.kind.rawValue, at: 3)
      try insertEntry.bind(operation.subject, at: 4)
      try insertEntry.bind(Int64(operation.count), at: 5)
      try insertEntry.bind(JournalCoding.text(of: outcome), at: 6)
      try insertEntry.bind(changes, at: 7)
      try insertEntry.run()
      return result
    }
  }

  // MARK: - Journal

  /// The newest journal entries first.
  ///
  /// - Parameter limit: At most this many entries; `nil` for all.
  func journal(limit: Int?) throws(StockStorageError) -> [JournalEntry] {
    try selectJournal.bind(Int64(limit.map { max(0, $0) } ?? -1), at: 1)
    defer { selectJournal.reset() }
    var entries: [JournalEntry] = []
    while try selectJournal.step() {
      let id = selectJournal.integer(at: 0)
      guard let shop = selectJournal.text(at: 2),
        let kind = selectJournal.text(at: 3).flatMap(StockOperation.Kind.init(rawValue:)),
        let subject = selectJournal.text(at: 4),
        let outcome = selectJournal.text(at: 6).flatMap(JournalCoding.outcome),
        let changes = selectJournal.text(at: 7).flatMap(JournalCoding.changes)
      else {
        throw .invalid(path: database.path, detail: "journal entry \(id) is damaged")
      }
      entries.append(
        JournalEntry(
          id: id, time: Date(timeIntervalSince1970: selectJournal.double(at: 1)), shop: shop,
          kind: kind, subject: subject, count: Int(selectJournal.integer(at: 5)),
          outcome: outcome, changes: changes))
    }
    return entries
  }

  /// The level every stock row was created with, including rows of fruits not held.
  func initialLevels() throws(StockStorageError) -> [Fruit.ID: Int] {
    defer { selectInitial.reset() }
    var levels: [Fruit.ID: Int] = [:]
    while try selectInitial.step() {
      guard let fruit = selectInitial.text(at: 0) else {
        throw .invalid(path: database.path, detail: "a stock row has no fruit")
      }
      levels[Fruit.ID(fruit)] = Int(selectInitial.integer(at: 1))
    }
    return levels
  }
}
