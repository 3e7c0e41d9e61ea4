import Foundation
import JuiceMakerKit

/// One connection to a store with the statements of its operations: not safe to
/// share between threads, so `PostgresStockStorage` reaches it only through its lock.
final class Session {
  let connection: Connection
  private let location: String
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

  private static let entryColumns = """
    sequence, request_id, extract(epoch FROM time)::text, editor, action, subject, count,
    expected, outcome, detail::text, changes::text
    """

  /// Reads the stock rows, adding one with its initial stock for each fruit the store
  /// lacks.
  init(connection: Connection, fruits: [Fruit], location: String) throws(StockStorageError) {
    self.connection = connection
    self.location = location
    self.fruits = fruits.map(\.id)
    var order: [Fruit.ID: Int] = [:]
    for (index, fruit) in fruits.enumerated() { order[fruit.id] = index }
    self.order = order
    let purpose = "reading stock rows"
    do {
      var ids = try Self.rowIDs(connection)
      let missing = fruits.filter { ids[$0.id] == nil }
      if !missing.isEmpty {
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
        ids = try Self.rowIDs(connection)
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

  private static func rowIDs(_ connection: Connection) throws(PostgresError) -> [Fruit.ID: Int64] {
    let result = try connection.execute(prepared: "stock_rows", "SELECT id, fruit FROM stock", [])
    var ids: [Fruit.ID: Int64] = [:]
    for row in 0..<result.count {
      if let id = result.integer(row, 0), let text = result.text(row, 1),
        let fruit = try? Fruit.ID(validating: text)
      {
        ids[fruit] = id
      }
    }
    return ids
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
  func levels() throws(PostgresError) -> [Int] {
    let result = try connection.execute(prepared: "levels", "SELECT id, level FROM stock", [])
    var levels = [Int](repeating: 0, count: fruits.count)
    for row in 0..<result.count {
      if let id = result.integer(row, 0), let index = indices[id],
        let level = result.integer(row, 1)
      {
        levels[index] = Int(level)
      }
    }
    return levels
  }

  /// The level every stock row was created with.
  func initialLevels() throws(PostgresError) -> [Fruit.ID: Int] {
    let result = try connection.execute(
      prepared: "initial_levels", "SELECT fruit, initial FROM stock", [])
    var levels: [Fruit.ID: Int] = [:]
    for row in 0..<result.count {
      if let text = result.text(row, 0), let fruit = try? Fruit.ID(validating: text),
        let level = result.integer(row, 1)
      {
        levels[fruit] = Int(level)
      }
    }
    return levels
  }

  // MARK: - Operations

  /// Why one attempt at an operation failed.
  private enum AttemptFailure: Error {
    /// A statement failed.
    case database(PostgresError, purpose: String)
  }

  /// Runs a transaction, trying it again after a serialization failure, a deadlock, a
  /// lost connection, or a request id journaled meanwhile by another connection.
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
            throw .unavailable(store: location, cause: error.failure(purpose))
          }
        }
      }
    }
    if last.connectionLost {
      throw lost(id, commitSent: commitSent, last, lastPurpose)
    }
    throw .unavailable(store: location, cause: last.failure(lastPurpose))
  }

  private func lost(
    _ id: RequestID, commitSent: Bool, _ error: PostgresError, _ purpose: String
  ) -> StockStorageError {
    commitSent
      ? .outcomeUnknown(store: location, id: id, cause: error.failure(purpose))
      : .unavailable(store: location, cause: error.failure(purpose))
  }

  private func rollBack() {
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
        SELECT s.id, s.level, (SELECT j.sequence FROM journal j WHERE j.request_id = $2)
        FROM stock s WHERE s.id = ANY($1::bigint[]) ORDER BY s.fruit FOR UPDATE OF s
        """, [arrayLiteral(ids.map { String($0) }), id.rawValue])
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
    var values = [Int](repeating: 0, count: fruits.count)
    for row in 0..<locked.count {
      guard let id = locked.integer(row, 0), let index = indices[id],
        let level = locked.integer(row, 1)
      else { continue }
      values[index] = Int(level)
    }
    let levels = StockLevels(values, touching: touching)
    guard let commit = decide(StockTransaction(levels: levels, journaled: journaled)) else {
      try endReading()
      return nil
    }
    let operation = commit.operation
    let written = try run("journaling an operation") { () throws(PostgresError) in
      try connection.execute(
        prepared: "write",
        """
        WITH changed AS (
          UPDATE stock SET level = v.level
          FROM unnest($1::bigint[], $2::bigint[]) AS v(id, level) WHERE stock.id = v.id)
        INSERT INTO journal (request_id, editor, action, subject, count, expected, outcome,
          detail, changes)
        VALUES ($3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb)
        RETURNING sequence, extract(epoch FROM time)::text
        """,
        [
          arrayLiteral(commit.changes.map { String(rows[$0.index]) }),
          arrayLiteral(commit.changes.map { String($0.level.after) }), operation.id.rawValue,
          operation.editor, operation.action.name, Self.subject(of: operation.action),
          String(operation.action.count), Self.expected(of: operation.action),
          commit.outcome.name, Self.detail(of: commit.outcome),
          Self.changesJSON(commit.changes.map(\.level)),
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
        ORDER BY sequence DESC LIMIT $4::bigint
        """,
        [
          query.editor, query.since.map { String($0.timeIntervalSince1970) },
          query.after.map { String($0) }, query.limit.map { String(max(0, $0)) },
          query.request?.rawValue,
        ])
    }
    var entries: [JournalEntry] = []
    for row in 0..<result.count {
      entries.append(try entry(result, row))
    }
    return entries
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
    let damaged = StockStorageError.invalid(
      store: location,
      cause: StorageFailure(
        code: "", message: "journal entry \(sequence) is damaged", purpose: "reading the journal"))
    guard let requestText = result.text(row, 1),
      let request = try? RequestID(validating: requestText),
      let date = result.text(row, 2).flatMap(Self.date), let editor = result.text(row, 3),
      let kind = result.text(row, 4), let subject = result.text(row, 5),
      let count = result.integer(row, 6).map({ Int($0) }), let outcomeName = result.text(row, 8),
      let detail = result.text(row, 9).flatMap(Self.json),
      let changesJSON = result.text(row, 10).flatMap(Self.json) as? [[Any]]
    else { throw damaged }
    let expected = result.integer(row, 7).map { Int($0) }
    let action: StockOperation.Action
    if kind == "order" {
      guard let juice = try? Juice.ID(validating: subject) else { throw damaged }
      action = .order(juice, count: count)
    } else {
      guard let fruit = try? Fruit.ID(validating: subject) else { throw damaged }
      switch kind {
      case "add": action = .add(fruit, count: count)
      case "remove": action = .remove(fruit, count: count)
      case "set": action = .set(fruit, level: count, expected: expected)
      default: throw damaged
      }
    }
    let outcome: StockOutcome
    switch outcomeName {
    case "done": outcome = .done
    case "refused":
      guard let list = (detail as? [String: Any])?["shortages"] as? [[Any]] else { throw damaged }
      var shortages: [Shortage] = []
      for item in list {
        guard item.count == 3, let text = item[0] as? String,
          let fruit = try? Fruit.ID(validating: text), let needed = item[1] as? Int,
          let available = item[2] as? Int
        else { throw damaged }
        shortages.append(Shortage(fruit: fruit, needed: needed, available: available))
      }
      outcome = .refused(shortages)
    case "conflict":
      guard let fruit = action.fruit, let expected,
        let actual = (detail as? [String: Any])?["actual"] as? Int
      else { throw damaged }
      outcome = .conflict(fruit: fruit, expected: expected, actual: actual)
    default: throw damaged
    }
    var changes: [StockChange.Level] = []
    for item in changesJSON {
      guard item.count == 3, let text = item[0] as? String,
        let fruit = try? Fruit.ID(validating: text), let before = item[1] as? Int,
        let after = item[2] as? Int
      else { throw damaged }
      changes.append(StockChange.Level(fruit: fruit, before: before, after: after))
    }
    // In level order, fruits this storage does not hold last.
    changes.sort { (order[$0.fruit] ?? Int.max) < (order[$1.fruit] ?? Int.max) }
    return JournalEntry(
      sequence: sequence, date: date,
      operation: StockOperation(id: request, editor: editor, action: action), outcome: outcome,
      changes: changes)
  }

  // MARK: - Column encoding

  private static func subject(of action: StockOperation.Action) -> String {
    action.juice?.rawValue ?? action.fruit?.rawValue ?? ""
  }

  private static func expected(of action: StockOperation.Action) -> String? {
    if case .set(_, _, let expected?) = action { return String(expected) }
    return nil
  }

  /// `{}`, `{"shortages":[["kiwi",101,100]]}` or `{"actual":7}`; ids are validated
  /// to need no escaping.
  private static func detail(of outcome: StockOutcome) -> String {
    switch outcome {
    case .done: "{}"
    case .refused(let shortages):
      "{\"shortages\":["
        + shortages.map { "[\"\($0.fruit.rawValue)\",\($0.needed),\($0.available)]" }
        .joined(separator: ",") + "]}"
    case .conflict(_, _, let actual): "{\"actual\":\(actual)}"
    }
  }

  /// `[["kiwi",10,7]]`: fruit, level before, level after.
  private static func changesJSON(_ changes: [StockChange.Level]) -> String {
    "["
      + changes.map { "[\"\($0.fruit.rawValue)\",\($0.before),\($0.after)]" }
      .joined(separator: ",") + "]"
  }

  private static func json(_ text: String) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  private static func date(_ text: String) -> Date? {
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
