import FoundationEssentials
import JuiceMakerKit

/// One connection to a store with the statements of its operations: not safe to
/// share between threads, so `PostgresStockStorage` reaches it only through its lock.
final class Session {
  let connection: Connection
  let location: String
  private let fruits: [Fruit.ID]
  /// The stock row id of each fruit, in level order.
  private let rows: [Int64]
  /// The level index of each stock row id; rows of fruits not held are absent.
  private let indices: [Int64: Int]
  private let order: [Fruit.ID: Int]
  /// Called after each `COMMIT` is sent, for tests.
  var afterCommitSent: (@Sendable () -> Void)?

  /// How many times an operation runs before a serialization failure, a deadlock or
  /// a lost connection is reported.
  static let attempts = 5

  /// The columns of `JournalRow`, in its order, as text.
  private static let entryColumns = """
    sequence, request_id, extract(epoch FROM time)::text, editor, action, subject, count,
    expected, outcome, actual, shortages::text, changes::text, price, currency, used, par
    """

  /// Checks the store's columns and reads the stock rows, adding one with its initial
  /// stock for each fruit the store lacks.
  ///
  /// - Throws: `StockStorageError.invalid` for a damaged store: a column of another
  ///   type, a stock row with an invalid fruit id, or a missing stock row of a fruit
  ///   the journal names (a fruit new to the store gets a row); `.unavailable` when the
  ///   server fails.
  init(connection: Connection, fruits: [Fruit], location: String) throws(StockStorageError) {
    self.connection = connection
    self.location = location
    self.fruits = fruits.map(\.id)
    var order: [Fruit.ID: Int] = [:]
    for (index, fruit) in fruits.enumerated() { order[fruit.id] = index }
    self.order = order
    let purpose = "reading stock rows"
    do {
      if let damage = try Schema.columnDamage(connection) {
        throw StockStorageError.invalid(
          store: location,
          cause: StorageFailure(code: "", message: damage, purpose: "reading the schema"))
      }
      // A storage opened for no fruits (to read the menu layer) reads no stock row.
      var ids = fruits.isEmpty ? [:] : try Self.rowIDs(connection, location: location)
      let missing = fruits.filter { ids[$0.id] == nil }
      if !missing.isEmpty {
        // A fruit the journal names had a row: losing it is damage, and a new row
        // with the initial stock would silently undo every change since.
        let named = try connection.execute(
          """
          SELECT f FROM unnest($1::text[]) AS f
          WHERE EXISTS (
            SELECT 1 FROM journal j
            WHERE j.changes @> jsonb_build_array(jsonb_build_array(f))
              OR j.shortages @> jsonb_build_array(jsonb_build_array(f))
              OR (j.action <> 'order' AND j.subject = f))
          ORDER BY f
          """, [arrayLiteral(missing.map(\.id.rawValue))])
        let lost = (0..<named.count).compactMap { named.text($0, 0) }
        if !lost.isEmpty {
          throw StockStorageError.invalid(
            store: location,
            cause: StorageFailure(
              code: "",
              message: lost.count == 1
                ? "the stock row of \(lost[0]) is missing, though the journal records it"
                : "the stock rows of \(lost.joined(separator: ", ")) are missing, though the "
                  + "journal records them",
              purpose: purpose))
        }
        try connection.execute(
          """
          INSERT INTO stock (fruit, level, initial)
          SELECT f, l, l FROM unnest($1::text[], $2::bigint[]) AS t(f, l)
          ON CONFLICT (fruit) DO NOTHING
          """,
          [
            arrayLiteral(missing.map(\.id.rawValue)),
            arrayLiteral(missing.map { String($0.initialStock) }),
          ])
        ids = try Self.rowIDs(connection, location: location)
      }
      var rows: [Int64] = []
      var indices: [Int64: Int] = [:]
      for (index, fruit) in fruits.enumerated() {
        guard let id = ids[fruit.id] else {
          throw StockStorageError.invalid(
            store: location,
            cause: StorageFailure(
              code: "", message: "the stock row of \(fruit.id) is missing", purpose: purpose))
        }
        rows.append(id)
        indices[id] = index
      }
      self.rows = rows
      self.indices = indices
    } catch let error as PostgresError {
      throw .unavailable(store: location, cause: error.failure(purpose))
    } catch let error as StockStorageError {
      throw error
    } catch {
      throw .unavailable(
        store: location, cause: StorageFailure(code: "", message: "\(error)", purpose: purpose))
    }
  }

  /// The row id of every stock row, by fruit.
  ///
  /// - Throws: `StockStorageError.invalid` for a row whose fruit id is not one.
  private static func rowIDs(_ connection: Connection, location: String)
    throws(StockStorageError) -> [Fruit.ID: Int64]
  {
    let purpose = "reading stock rows"
    let result: QueryResult
    do {
      result = try connection.execute(
        prepared: "stock_rows", "SELECT id, fruit FROM stock", [])
    } catch {
      throw .unavailable(store: location, cause: error.failure(purpose))
    }
    var ids: [Fruit.ID: Int64] = [:]
    for row in 0..<result.count {
      guard let id = result.integer(row, 0), let text = result.text(row, 1),
        let fruit = try? Fruit.ID(validating: text)
      else {
        let shown = result.text(row, 1).map { "\"\($0)\"" } ?? "NULL"
        throw .invalid(
          store: location,
          cause: StorageFailure(
            code: "", message: "a stock row has no valid fruit id: \(shown)", purpose: purpose))
      }
      ids[fruit] = id
    }
    return ids
  }

  /// A level column of a stock row read as text: a whole number of at least 0.
  ///
  /// The queries read levels as text (`level::text`), so a column altered to another
  /// type still yields its values, to be refused here rather than read as nothing.
  static func wholeNumber(
    _ text: String?, column: String, of fruit: Fruit.ID
  ) -> Result<Int, Damage> {
    let row = "the stock row of \(fruit) is damaged"
    guard let text else { return .failure(Damage("\(row): its \(column) is NULL")) }
    guard let value = Int(text) else {
      return .failure(Damage("\(row): its \(column) \(text) is not a whole number"))
    }
    guard value >= 0 else {
      return .failure(Damage("\(row): its \(column) \(value) is negative"))
    }
    return .success(value)
  }

  /// What makes the store's rows unusable: they are not what the store wrote.
  struct Damage: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  func damaged(_ message: String, _ purpose: String) -> StockStorageError {
    .invalid(store: location, cause: StorageFailure(code: "", message: message, purpose: purpose))
  }

  // MARK: - Reading

  /// Runs a read, connecting again once when the connection turns out to be lost.
  func reading<Result>(_ purpose: String, _ body: () throws(PostgresError) -> Result)
    throws(StockStorageError) -> Result
  {
    do {
      if !connection.isOpen { try connection.connect() }
      return try body()
    } catch {
      guard error.connectionLost else {
        throw .unavailable(store: location, cause: error.failure(purpose))
      }
      do {
        try connection.connect()
        return try body()
      } catch {
        throw .unavailable(store: location, cause: error.failure(purpose))
      }
    }
  }

  /// Every level.
  ///
  /// - Throws: `StockStorageError.invalid` when a stock row is missing or its level is
  ///   not a whole number of at least 0; `.unavailable` when the server fails.
  func levels() throws(StockStorageError) -> [Int] {
    let purpose = "reading levels"
    let result = try reading(purpose) { () throws(PostgresError) in
      try connection.execute(prepared: "levels", "SELECT id, level::text FROM stock", [])
    }
    var levels = [Int?](repeating: nil, count: fruits.count)
    for row in 0..<result.count {
      guard let id = result.integer(row, 0), let index = indices[id] else { continue }
      do throws(Damage) {
        levels[index] = try Self.wholeNumber(
          result.text(row, 1), column: "level", of: fruits[index]
        ).get()
      } catch {
        throw damaged(error.message, purpose)
      }
    }
    var found: [Int] = []
    for (index, level) in levels.enumerated() {
      guard let level else {
        throw damaged("the stock row of \(fruits[index]) is missing", purpose)
      }
      found.append(level)
    }
    return found
  }

  /// The level every stock row was created with.
  ///
  /// - Throws: `StockStorageError.invalid` when a stock row has no valid fruit id or
  ///   initial level; `.unavailable` when the server fails.
  func initialLevels() throws(StockStorageError) -> [Fruit.ID: Int] {
    let purpose = "reading initial levels"
    let result = try reading(purpose) { () throws(PostgresError) in
      try connection.execute(
        prepared: "initial_levels", "SELECT fruit, initial::text FROM stock", [])
    }
    var levels: [Fruit.ID: Int] = [:]
    for row in 0..<result.count {
      guard let text = result.text(row, 0), let fruit = try? Fruit.ID(validating: text) else {
        throw damaged("a stock row has no valid fruit id", purpose)
      }
      do throws(Damage) {
        levels[fruit] = try Self.wholeNumber(
          result.text(row, 1), column: "initial level", of: fruit
        ).get()
      } catch {
        throw damaged(error.message, purpose)
      }
    }
    return levels
  }

  // MARK: - Operations

  /// Why one attempt at an operation failed.
  private enum AttemptFailure: Error {
    /// A statement failed.
    case database(PostgresError, purpose: String)
    /// A locked stock row is missing or cannot be read.
    case damaged(String, purpose: String)
  }

  /// Runs a transaction, trying it again after a serialization failure, a deadlock, a
  /// lost connection, or a request id journaled meanwhile by another connection.
  ///
  /// A lock or statement timeout ends it at once, saying which rows it waited for.
  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry? {
    var commitSent = false
    var last = PostgresError(code: "", message: "no attempt was made", connectionLost: false)
    var lastPurpose = "running an operation"
    for _ in 0..<Self.attempts {
      do throws(AttemptFailure) {
        if !connection.isOpen {
          do {
            try connection.connect()
          } catch {
            throw AttemptFailure.database(error, purpose: "connecting again")
          }
        }
        return try attempt(id, touching: touching, retried: commitSent, decide) {
          commitSent = true
        }
      } catch {
        switch error {
        case .damaged(let message, let purpose):
          rollBack()
          throw damaged(message, purpose)
        case .database(let error, let purpose):
          last = error
          lastPurpose = purpose
          if error.connectionLost {
            // Once more on a new connection: the operation's row locks end with the
            // old session, so the next attempt finds its entry if it was committed.
            if (try? connection.connect()) == nil {
              throw lost(id, commitSent: commitSent, error, purpose)
            }
            continue
          }
          rollBack()
          // The same request id journaled meanwhile by another connection: the next
          // attempt finds its entry.
          guard error.isTransient || error.code == PostgresError.uniqueViolation else {
            throw .unavailable(
              store: location, cause: error.failure(purpose, waitingFor: rowsNamed(touching)))
          }
        }
      }
    }
    if last.connectionLost {
      throw lost(id, commitSent: commitSent, last, lastPurpose)
    }
    throw .unavailable(store: location, cause: last.failure(lastPurpose))
  }

  /// What an operation touching the levels at `touching` waits for when it waits: the
  /// stock rows of its fruits.
  private func rowsNamed(_ touching: [Int]) -> String {
    let names = touching.map { fruits[$0].rawValue }
    return switch names.count {
    case 0: "a lock on the store's tables"
    case 1: "the stock row of \(names[0])"
    default: "one of the stock rows of \(names.joined(separator: ", "))"
    }
  }

  private func lost(
    _ id: RequestID, commitSent: Bool, _ error: PostgresError, _ purpose: String
  ) -> StockStorageError {
    commitSent
      ? .outcomeUnknown(store: location, id: id, cause: error.failure(purpose))
      : .unavailable(store: location, cause: error.failure(purpose))
  }

  func rollBack() {
    guard connection.isOpen else { return }
    _ = try? connection.execute("ROLLBACK")
  }

  /// One transaction: lock the touched rows in fruit id order and look the request
  /// id up, let `decide` choose, write the changed levels and the journal row, commit
  /// and announce.
  private func attempt(
    _ id: RequestID, touching: [Int], retried: Bool,
    _ decide: (StockTransaction) -> StockCommit?, commitSent: () -> Void
  ) throws(AttemptFailure) -> JournalEntry? {
    try run("starting a transaction") { () throws(PostgresError) in
      try connection.execute(prepared: "begin", "BEGIN", [])
    }
    let ids = touching.map { rows[$0] }
    let locked = try run("locking stock rows") { () throws(PostgresError) in
      try connection.execute(
        prepared: "lock",
        """
        SELECT s.id, s.level::text,
          (SELECT j.sequence FROM journal j WHERE j.request_id = $2)
        FROM stock s WHERE s.id = ANY($1::bigint[]) ORDER BY s.fruit FOR UPDATE OF s
        """, [arrayLiteral(ids.map { String($0) }), id.rawValue])
    }
    // Every touched row, each with a level: a row that is gone or unreadable is damage,
    // never a level of 0 to write over.
    var values = [Int](repeating: 0, count: fruits.count)
    var found = 0
    for row in 0..<locked.count {
      guard let id = locked.integer(row, 0), let index = indices[id] else { continue }
      switch Self.wholeNumber(locked.text(row, 1), column: "level", of: fruits[index]) {
      case .success(let level):
        values[index] = level
        found += 1
      case .failure(let damage):
        throw .damaged(damage.message, purpose: "locking stock rows")
      }
    }
    if found != touching.count {
      let present = Set((0..<locked.count).compactMap { locked.integer($0, 0) })
      let index = touching.first { !present.contains(rows[$0]) } ?? touching[0]
      throw .damaged("the stock row of \(fruits[index]) is missing", purpose: "locking stock rows")
    }
    var isJournaled = locked.count > 0 && locked.text(0, 2) != nil
    if touching.isEmpty {
      isJournaled = try run("looking up a request id") { () throws(PostgresError) in
        try connection.execute(
          prepared: "request", "SELECT 1 FROM journal WHERE request_id = $1", [id.rawValue]
        ).count > 0
      }
    }
    var journaled: JournalEntry?
    if isJournaled {
      journaled = try run("looking up a request id") { () throws(PostgresError) in
        try lookUp(id)
      }
      guard let journaled else {
        throw .database(
          PostgresError(
            code: "", message: "journal entry of request \(id) vanished", connectionLost: false),
          purpose: "looking up a request id")
      }
      // A retry after a lost COMMIT finds its own entry: what it committed.
      if retried {
        try endReading()
        return journaled
      }
    }
    let levels = StockLevels(values, touching: touching)
    guard let commit = decide(StockTransaction(levels: levels, journaled: journaled)) else {
      try endReading()
      return nil
    }
    let row = JournalRow(commit)
    let written = try run("journaling an operation") { () throws(PostgresError) in
      try connection.execute(
        prepared: "write",
        """
        WITH changed AS (
          UPDATE stock SET level = v.level
          FROM unnest($1::bigint[], $2::bigint[]) AS v(id, level) WHERE stock.id = v.id)
        INSERT INTO journal (request_id, editor, action, subject, count, expected, outcome,
          actual, shortages, changes, price, currency, used, par)
        VALUES ($3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13, $14, $15, $16)
        RETURNING sequence, extract(epoch FROM time)::text
        """,
        [
          arrayLiteral(commit.changes.map { String(rows[$0.index]) }),
          arrayLiteral(commit.changes.map { String($0.level.after) }), row.requestID, row.editor,
          row.action, row.subject, String(row.count), row.expected.map { String($0) },
          row.outcome, row.actual.map { String($0) }, row.shortages, row.changes,
          row.price.map { String($0) }, row.currency, String(row.used), row.par.map { String($0) },
        ])
    }
    guard let sequence = written.integer(0, 0), let date = written.text(0, 1).flatMap(Self.date)
    else {
      throw .database(
        PostgresError(code: "", message: "the journal row came back empty", connectionLost: false),
        purpose: "journaling an operation")
    }
    commitSent()
    let results = try run("committing") { () throws(PostgresError) in
      try connection.executeEach(
        "COMMIT; SELECT pg_notify('\(PostgresStockStorage.channel)', '\(sequence)')",
        after: afterCommitSent)
    }
    if let failure = results.first, let error = failure {
      throw .database(error, purpose: "committing")
    }
    return commit.entry(sequence: sequence, date: date)
  }

  /// Ends a transaction that wrote nothing.
  private func endReading() throws(AttemptFailure) {
    try run("ending a transaction") { () throws(PostgresError) in
      try connection.execute(prepared: "rollback", "ROLLBACK", [])
    }
  }

  @discardableResult
  private func run<Result>(_ purpose: String, _ body: () throws(PostgresError) -> Result)
    throws(AttemptFailure) -> Result
  {
    do {
      return try body()
    } catch {
      throw .database(error, purpose: purpose)
    }
  }

  // MARK: - Journal

  /// The journal, newest entry first, filtered by `query`.
  func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry] {
    let result = try reading("reading the journal") { () throws(PostgresError) in
      try connection.execute(
        prepared: "journal",
        """
        SELECT \(Self.entryColumns) FROM journal
        WHERE ($1::text IS NULL OR editor = $1)
          AND ($2::float8 IS NULL OR time >= to_timestamp($2::float8))
          AND ($3::bigint IS NULL OR sequence > $3::bigint)
          AND ($5::text IS NULL OR request_id = $5::text)
          AND ($6::float8 IS NULL OR time < to_timestamp($6::float8))
        ORDER BY sequence DESC LIMIT $4::bigint
        """,
        [
          query.editor, query.since.map { String($0.timeIntervalSince1970) },
          query.after.map { String($0) }, query.limit.map { String(max(0, $0)) },
          query.request?.rawValue, query.until.map { String($0.timeIntervalSince1970) },
        ])
    }
    var entries: [JournalEntry] = []
    for row in 0..<result.count {
      entries.append(try entry(result, row))
    }
    return entries
  }

  /// How many entries pass `query`'s filters.
  func journalCount(_ query: JournalQuery) throws(StockStorageError) -> Int {
    let result = try reading("counting journal entries") { () throws(PostgresError) in
      try connection.execute(
        prepared: "journal-count",
        """
        SELECT count(*) FROM journal
        WHERE ($1::text IS NULL OR editor = $1)
          AND ($2::float8 IS NULL OR time >= to_timestamp($2::float8))
          AND ($3::bigint IS NULL OR sequence > $3::bigint)
          AND ($4::text IS NULL OR request_id = $4::text)
          AND ($5::float8 IS NULL OR time < to_timestamp($5::float8))
        """,
        [
          query.editor, query.since.map { String($0.timeIntervalSince1970) },
          query.after.map { String($0) }, query.request?.rawValue,
          query.until.map { String($0.timeIntervalSince1970) },
        ])
    }
    return Int(result.integer(0, 0) ?? 0)
  }

  /// A report, counted with `GROUP BY` by `StockReport`'s rule.
  func report(_ query: ReportQuery) throws(StockStorageError) -> [ReportRow] {
    let filter = """
      action = 'order' AND ($1::text IS NULL OR editor = $1)
        AND ($2::float8 IS NULL OR time >= to_timestamp($2::float8))
        AND ($3::float8 IS NULL OR time < to_timestamp($3::float8))
      """
    // Hours and days on a clock a whole number of quarter hours from UTC (every time zone's)
    // are counted by quarter hour, and the quarters merged into hours or days here.
    let quarters =
      (query.grouping == .hour || query.grouping == .day) && query.utcOffset % 900 == 0
    let sql: String
    switch query.grouping {
    case .fruit:
      sql = """
        SELECT c ->> 0, NULL, sum(count), 0, 0, sum((c ->> 1)::bigint - (c ->> 2)::bigint)
        FROM journal, jsonb_array_elements(journal.changes) AS c
        WHERE \(filter) AND outcome = 'done'
        GROUP BY 1
        UNION ALL
        SELECT s ->> 0, NULL, 0, sum(count), 0, 0
        FROM journal, jsonb_array_elements(journal.shortages) AS s
        WHERE \(filter) AND outcome = 'refused'
        GROUP BY 1
        """
    case .juice, .shop, .hour, .day:
      let key: String
      switch query.grouping {
      case .juice: key = "subject"
      case .shop: key = "editor"
      case _ where quarters:
        // date_part gives a double; extract gives a numeric, several times slower to
        // divide a million times.
        key = "floor(date_part('epoch', time) / 900)::bigint"
      default:
        // The second the hour or day starts at, on the query's clock: s − ((s % b) + b) % b.
        key = """
          floor(date_part('epoch', time))::bigint + $4::bigint
            - mod(mod(floor(date_part('epoch', time))::bigint + $4::bigint, $5::bigint)
              + $5::bigint, $5::bigint) - $4::bigint
          """
      }
      sql = """
        SELECT \(key), currency,
          sum(CASE WHEN outcome = 'done' THEN count ELSE 0 END),
          sum(CASE WHEN outcome = 'refused' THEN count ELSE 0 END),
          sum(CASE WHEN outcome = 'done' THEN coalesce(price, 0) * count ELSE 0 END),
          sum(used)
        FROM journal WHERE \(filter)
        GROUP BY 1, 2
        """
    }
    var parameters = [
      query.editor, query.since.map { String($0.timeIntervalSince1970) },
      query.until.map { String($0.timeIntervalSince1970) },
    ]
    if (query.grouping == .hour || query.grouping == .day) && !quarters {
      parameters += [String(query.utcOffset), String(query.bucketSeconds)]
    }
    let result = try reading("counting a report") { () throws(PostgresError) in
      try connection.execute(sql, parameters)
    }
    var rows: [ReportRow] = []
    for index in 0..<result.count {
      var key = result.text(index, 0)
      if quarters, let quarter = key.flatMap({ Int64($0) }) {
        key = String(Int64(query.bucket(ofSecond: quarter * 900).timeIntervalSince1970))
      }
      guard
        let key,
        let row = StockReport.row(
          key: key, currency: result.text(index, 1), made: result.integer(index, 2) ?? 0,
          refused: result.integer(index, 3) ?? 0, takings: result.integer(index, 4) ?? 0,
          used: result.integer(index, 5) ?? 0, grouping: query.grouping)
      else {
        throw damaged(
          "a journal entry's \(query.grouping.rawValue) is not valid", "counting a report")
      }
      rows.append(row)
    }
    return StockReport.merged(rows)
  }

  /// The newest `limits` entry of each fruit.
  func limits() throws(StockStorageError) -> [Fruit.ID: StockLimits] {
    let purpose = "reading stock limits"
    let result = try reading(purpose) { () throws(PostgresError) in
      try connection.execute(
        prepared: "limits",
        """
        SELECT DISTINCT ON (subject) subject, count, par FROM journal
        WHERE action = 'limits' AND outcome = 'done' ORDER BY subject, sequence DESC
        """, [])
    }
    var limits: [Fruit.ID: StockLimits] = [:]
    for row in 0..<result.count {
      guard let text = result.text(row, 0), let fruit = try? Fruit.ID(validating: text),
        let minimum = result.integer(row, 1), let par = result.integer(row, 2), minimum >= 0,
        par >= minimum, par <= Int64(Int.max)
      else {
        throw damaged("a limits entry has no valid fruit, minimum and par", purpose)
      }
      limits[fruit] = StockLimits(minimum: Int(minimum), par: Int(par))
    }
    return limits
  }

  private func lookUp(_ id: RequestID) throws(PostgresError) -> JournalEntry? {
    let result = try connection.execute(
      prepared: "entry", "SELECT \(Self.entryColumns) FROM journal WHERE request_id = $1",
      [id.rawValue])
    guard result.count > 0 else { return nil }
    do {
      return try entry(result, 0)
    } catch {
      throw PostgresError(code: "", message: error.cause.message, connectionLost: false)
    }
  }

  private func entry(_ result: QueryResult, _ row: Int) throws(StockStorageError) -> JournalEntry {
    let sequence = result.integer(row, 0) ?? 0
    guard let time = result.text(row, 2).flatMap(Self.date) else {
      throw .invalid(
        store: location,
        cause: StorageFailure(
          code: "", message: "journal entry \(sequence) is damaged: time is missing",
          purpose: "reading the journal"))
    }
    let columns = JournalRow(
      sequence: sequence, requestID: result.text(row, 1) ?? "", time: time,
      editor: result.text(row, 3) ?? "", action: result.text(row, 4) ?? "",
      subject: result.text(row, 5) ?? "", count: result.integer(row, 6) ?? -1,
      expected: result.integer(row, 7), outcome: result.text(row, 8) ?? "",
      actual: result.integer(row, 9), shortages: result.text(row, 10),
      changes: result.text(row, 11) ?? "", price: result.integer(row, 12),
      currency: result.text(row, 13), used: result.integer(row, 14) ?? 0,
      par: result.integer(row, 15))
    do {
      return try columns.entry(order: order)
    } catch {
      throw .invalid(
        store: location,
        cause: StorageFailure(code: "", message: error.message, purpose: "reading the journal"))
    }
  }

  static func date(_ text: String) -> Date? {
    Double(text).map { Date(timeIntervalSince1970: $0) }
  }
}

/// A PostgreSQL array literal of the values, each quoted: `{"a","b"}`.
func arrayLiteral(_ values: [String]) -> String {
  "{"
    + values.map { value in
      "\"" + value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }.joined(separator: ",") + "}"
}
