import FoundationEssentials
import JuiceMakerKit

/// The stock and journal tables of one connection, with every statement an
/// operation needs prepared once.
///
/// Not safe to share between threads: `SQLiteStockStorage` reaches it only through
/// its lock.
final class StockTables {
  let database: Database
  /// The fruits levels are kept for, in level order.
  let fruits: [Fruit.ID]
  /// The level index of each fruit.
  private let order: [Fruit.ID: Int]
  /// The stock row id of each fruit, in level order.
  private let rows: [Int64]
  /// The level index of each stock row id; rows of fruits not held are absent.
  private let indices: [Int64: Int]

  private let selectLevels: Statement
  private let updateLevel: Statement
  private let insertEntry: Statement
  private let selectRequest: Statement
  private let selectInitial: Statement
  private let dataVersion: Statement
  /// The menu layer's version, for a shop that polls it.
  let selectMenuVersion: Statement
  /// The files the connection opened, checked before every operation.
  private let files: StoreFiles
  /// Why the path no longer names the store's files, once found: every operation
  /// throws it from then on.
  private var replacement: StockStorageError?

  /// Prepares the statements and adds a row for each fruit the store lacks, with the
  /// fruit's initial stock.
  ///
  /// - Throws: `StockStorageError.invalid` when the tables do not have the schema's
  ///   columns or are damaged; `.unavailable` when missing rows cannot be added.
  init(database: Database, fruits: [Fruit]) throws(StockStorageError) {
    self.database = database
    self.fruits = fruits.map(\.id)
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
    selectMenuVersion = try database.prepare(
      "SELECT coalesce(max(version), 0) FROM menu_publication",
      purpose: "reading the menu's version")

    // A storage opened for no fruits (to read the menu layer) reads no stock row.
    var ids = fruits.isEmpty ? [:] : try Self.rowIDs(database)
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
    _ = try database.integer(
      "SELECT max(sequence) FROM journal", purpose: "reading the journal")
    // After the first reads, which opened the -wal and the -shm.
    files = try StoreFiles(database)
  }

  // MARK: - Files

  /// Checks that the store's path still names the files the connection uses.
  ///
  /// - Throws: `StockStorageError.replaced` when a file was removed, renamed or replaced;
  ///   from then on every operation throws it, and nothing more is written.
  /// - Complexity: Three `stat` calls.
  func checkFiles() throws(StockStorageError) {
    if let replacement { throw replacement }
    do {
      try files.check()
    } catch {
      replacement = error
      throw error
    }
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
    try checkFiles()
    return try readLevels()
  }

  /// Reads every level, the store's files already checked.
  private func readLevels() throws(StockStorageError) -> [Int] {
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
  /// The store's files are checked inside the transaction, once the write lock is held
  /// and before anything is written, and again after the commit, before the entry is
  /// returned: an entry is returned only when the path named the files the connection
  /// wrote both before and after the commit.
  ///
  /// - Throws: `StockStorageError.replaced` when the path no longer named the store's
  ///   files before the write (nothing was written); `.outcomeUnknown` when it no longer
  ///   named them after the commit (the entry may be in a file the path does not name).
  /// - Complexity: O(*n* + *c*) statements' work for *n* stock rows and *c* changed
  ///   levels.
  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry? {
    let written = try database.transaction { () throws(StockStorageError) -> JournalEntry? in
      try checkFiles()
      let journaled = try entry(for: id)
      let levels = StockLevels(try readLevels(), touching: touching)
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
      try bind(JournalRow(commit, time: date))
      try insertEntry.run()
      return commit.entry(sequence: database.lastInsertedRow, date: date)
    }
    guard let written else { return nil }
    do {
      try checkFiles()
    } catch {
      throw .outcomeUnknown(store: database.path, id: id, cause: error.cause)
    }
    return written
  }

  /// Binds a row's columns after `sequence` to `insertEntry`.
  private func bind(_ row: JournalRow) throws(StockStorageError) {
    let statement = insertEntry
    try statement.bind(row.requestID, at: 1)
    try statement.bind(row.time.timeIntervalSince1970, at: 2)
    try statement.bind(row.editor, at: 3)
    try statement.bind(row.action, at: 4)
    try statement.bind(row.subject, at: 5)
    try statement.bind(row.count, at: 6)
    try bind(row.expected, at: 7)
    try statement.bind(row.outcome, at: 8)
    try bind(row.actual, at: 9)
    if let shortages = row.shortages {
      try statement.bind(shortages, at: 10)
    } else {
      try statement.bindNull(at: 10)
    }
    try statement.bind(row.changes, at: 11)
    try bind(row.price, at: 12)
    if let currency = row.currency {
      try statement.bind(currency, at: 13)
    } else {
      try statement.bindNull(at: 13)
    }
    try statement.bind(row.used, at: 14)
    try bind(row.par, at: 15)
  }

  private func bind(_ value: Int64?, at index: Int32) throws(StockStorageError) {
    if let value {
      try insertEntry.bind(value, at: index)
    } else {
      try insertEntry.bindNull(at: index)
    }
  }

  // MARK: - Journal

  /// The `WHERE` conditions of a journal query's filters, with `?1` editor, `?2` since,
  /// `?3` after, `?5` request and `?6` until.
  private static func conditions(_ query: JournalQuery) -> String {
    var conditions: [String] = []
    if query.editor != nil { conditions.append("editor = ?1") }
    if query.since != nil { conditions.append("time >= ?2") }
    if query.after != nil { conditions.append("sequence > ?3") }
    if query.request != nil { conditions.append("request_id = ?5") }
    if query.until != nil { conditions.append("time < ?6") }
    return conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
  }

  private func bind(_ query: JournalQuery, to select: Statement) throws(StockStorageError) {
    if let editor = query.editor { try select.bind(editor, at: 1) }
    if let since = query.since { try select.bind(since.timeIntervalSince1970, at: 2) }
    if let after = query.after { try select.bind(after, at: 3) }
    if let request = query.request { try select.bind(request.rawValue, at: 5) }
    if let until = query.until { try select.bind(until.timeIntervalSince1970, at: 6) }
  }

  /// The journal entries `query` selects, newest first.
  func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry] {
    try checkFiles()
    let select = try database.prepare(
      "SELECT \(StoreStatements.entryColumns) FROM journal \(Self.conditions(query)) "
        + "ORDER BY sequence DESC LIMIT ?4",
      purpose: "reading the journal")
    try bind(query, to: select)
    try select.bind(Int64(query.limit.map { max(0, $0) } ?? -1), at: 4)
    var entries: [JournalEntry] = []
    while try select.step() {
      entries.append(try entry(select))
    }
    return entries
  }

  /// How many entries pass `query`'s filters.
  func journalCount(_ query: JournalQuery) throws(StockStorageError) -> Int {
    try checkFiles()
    let select = try database.prepare(
      "SELECT count(*) FROM journal \(Self.conditions(query))",
      purpose: "counting journal entries")
    try bind(query, to: select)
    guard try select.step() else { return 0 }
    return Int(select.integer(at: 0))
  }

  /// A report, counted with `GROUP BY` by `StockReport`'s rule.
  func report(_ query: ReportQuery) throws(StockStorageError) -> [ReportRow] {
    try checkFiles()
    var filters = ["action = 'order'"]
    if query.editor != nil { filters.append("editor = ?1") }
    if query.since != nil { filters.append("time >= ?2") }
    if query.until != nil { filters.append("time < ?3") }
    let filter = filters.joined(separator: " AND ")
    // Hours and days on a clock a whole number of quarter hours from UTC (every time zone's)
    // are counted by quarter hour, in the order of the journal_quarter index, with no
    // sort, and the quarters merged into hours or days here.
    let quarters =
      (query.grouping == .hour || query.grouping == .day) && query.utcOffset % 900 == 0
    let sql: String
    switch query.grouping {
    case .fruit:
      sql = """
        SELECT c.value ->> 0, NULL, sum(count), 0, 0, sum((c.value ->> 1) - (c.value ->> 2))
        FROM journal, json_each(journal.changes) AS c WHERE \(filter) AND outcome = 'done'
        GROUP BY 1
        UNION ALL
        SELECT s.value ->> 0, NULL, 0, sum(count), 0, 0
        FROM journal, json_each(journal.shortages) AS s WHERE \(filter) AND outcome = 'refused'
        GROUP BY 1
        """
    case .juice, .shop, .hour, .day:
      let key: String
      switch query.grouping {
      case .juice: key = "subject"
      case .shop: key = "editor"
      case _ where quarters:
        key = "CAST(time AS INTEGER) / 900"
      default:
        // The second the hour or day starts at, on the query's clock: s − ((s % b) + b) % b.
        key = "CAST(time AS INTEGER) + ?4 - (((CAST(time AS INTEGER) + ?4) % ?5) + ?5) % ?5 - ?4"
      }
      sql = """
        SELECT \(key), currency,
          sum(CASE WHEN outcome = 'done' THEN count ELSE 0 END),
          sum(CASE WHEN outcome = 'refused' THEN count ELSE 0 END),
          sum(CASE WHEN outcome = 'done' THEN coalesce(price, 0) * count ELSE 0 END),
          sum(used)
        FROM journal WHERE \(filter) GROUP BY \(key), currency
        """
    }
    let select = try database.prepare(sql, purpose: "counting a report")
    if let editor = query.editor { try select.bind(editor, at: 1) }
    if let since = query.since { try select.bind(since.timeIntervalSince1970, at: 2) }
    if let until = query.until { try select.bind(until.timeIntervalSince1970, at: 3) }
    if (query.grouping == .hour || query.grouping == .day) && !quarters {
      try select.bind(Int64(query.utcOffset), at: 4)
      try select.bind(query.bucketSeconds, at: 5)
    }
    var rows: [ReportRow] = []
    while try select.step() {
      var key = select.text(at: 0) ?? String(select.integer(at: 0))
      if quarters {
        key = String(
          Int64(query.bucket(ofSecond: select.integer(at: 0) * 900).timeIntervalSince1970))
      }
      guard
        let row = StockReport.row(
          key: key, currency: select.text(at: 1), made: select.integer(at: 2),
          refused: select.integer(at: 3), takings: select.integer(at: 4),
          used: select.integer(at: 5), grouping: query.grouping)
      else {
        throw database.context.invalid(
          "a journal entry's \(query.grouping.rawValue) is not valid", purpose: select.purpose)
      }
      rows.append(row)
    }
    return StockReport.merged(rows)
  }

  /// Runs SQL on the connection.
  func execute(_ sql: String, purpose: String) throws(StockStorageError) {
    try checkFiles()
    try database.execute(sql, purpose: purpose)
  }

  /// The newest `limits` entry of each fruit, from the partial index on them.
  func limits() throws(StockStorageError) -> [Fruit.ID: StockLimits] {
    try checkFiles()
    // SQLite takes the bare columns from the row of max(sequence).
    let select = try database.prepare(
      """
      SELECT subject, count, par, max(sequence) FROM journal
      WHERE action = 'limits' AND outcome = 'done' GROUP BY subject
      """, purpose: "reading stock limits")
    var limits: [Fruit.ID: StockLimits] = [:]
    while try select.step() {
      let minimum = select.integer(at: 1)
      let par = select.integer(at: 2)
      guard let text = select.text(at: 0), let fruit = try? Fruit.ID(validating: text),
        minimum >= 0, par >= minimum, par <= Int64(Int.max)
      else {
        throw database.context.invalid(
          "a limits entry has no valid fruit, minimum and par", purpose: select.purpose)
      }
      limits[fruit] = StockLimits(minimum: Int(minimum), par: Int(par))
    }
    return limits
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
    let columns = JournalRow(
      sequence: sequence, requestID: row.text(at: 1) ?? "",
      time: Date(timeIntervalSince1970: row.double(at: 2)), editor: row.text(at: 3) ?? "",
      action: row.text(at: 4) ?? "", subject: row.text(at: 5) ?? "", count: row.integer(at: 6),
      expected: row.isNull(at: 7) ? nil : row.integer(at: 7), outcome: row.text(at: 8) ?? "",
      actual: row.isNull(at: 9) ? nil : row.integer(at: 9), shortages: row.text(at: 10),
      changes: row.text(at: 11) ?? "", price: row.isNull(at: 12) ? nil : row.integer(at: 12),
      currency: row.text(at: 13), used: row.integer(at: 14),
      par: row.isNull(at: 15) ? nil : row.integer(at: 15))
    do {
      return try columns.entry(order: order)
    } catch {
      throw database.context.invalid(error.message, purpose: row.purpose)
    }
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
    try checkFiles()
    defer { dataVersion.reset() }
    guard try dataVersion.step() else {
      throw database.context.invalid(
        "PRAGMA data_version returned no row", purpose: dataVersion.purpose)
    }
    return dataVersion.integer(at: 0)
  }
}
