import CSQLite
import JuiceMakerKit

/// One SQLite connection to a store file, not safe to share between threads.
///
/// It opens an existing file only (the caller creates it with the right mode), so
/// SQLite never creates a store file itself. Its connection is closed when the
/// last statement prepared on it is released.
final class Database {
  /// The store file.
  let path: String
  /// How long a statement waits for another connection's lock.
  let busyTimeout: Duration
  private let handle: OpaquePointer
  /// Turns SQLite's failures into storage errors.
  let context: FailureContext
  private var begin: Statement?
  private var commit: Statement?
  private var rollback: Statement?

  /// Opens the store file for reading and writing.
  ///
  /// - Throws: `StockStorageError.unavailable` when the file cannot be opened for
  ///   writing.
  init(path: String, busyTimeout: Duration) throws(StockStorageError) {
    var handle: OpaquePointer?
    // Without SQLITE_OPEN_CREATE: the file exists with mode 0600 by now, and if it
    // vanished meanwhile, SQLite must not recreate it with its default mode.
    let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
    let context = FailureContext(path: path, busyTimeout: busyTimeout)
    guard let handle else {
      throw context.failure(SQLITE_NOMEM, connection: nil, purpose: "opening the store")
    }
    self.path = path
    self.busyTimeout = busyTimeout
    self.handle = handle
    self.context = context
    guard code == SQLITE_OK else { throw failure(code, purpose: "opening the store") }
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, Database.milliseconds(busyTimeout))
    // Keep the -wal and -shm files when the last connection closes: creating,
    // initializing and unlinking them again would cost each short-lived `juice-maker`
    // process part of its start-up (JuiceMakerKit's Performance article has the
    // figure). The last connection still checkpoints
    // the log and, with a journal_size_limit set, truncates it to nothing, so the
    // store file alone holds every committed operation.
    var persist: Int32 = 1
    sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
    if sqlite3_db_readonly(handle, "main") == 1 {
      throw .unavailable(
        store: path,
        cause: StorageFailure(
          code: "", message: "the store file is read-only", purpose: "opening the store"))
    }
  }

  deinit {
    begin = nil
    commit = nil
    rollback = nil
    sqlite3_close_v2(handle)
  }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    guard seconds < Int64(Int32.max / 1000) else { return Int32.max }
    return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
  }

  // MARK: - Statements

  /// Prepares a statement meant to be kept and reused.
  ///
  /// - Parameters:
  ///   - sql: The statement.
  ///   - purpose: What the statement does, for the errors it reports.
  func prepare(_ sql: String, purpose: String) throws(StockStorageError) -> Statement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK else { throw failure(code, purpose: purpose) }
    guard let statement else {
      throw context.invalid("SQLite prepared no statement for \(sql)", purpose: purpose)
    }
    return Statement(handle: statement, context: context, purpose: purpose)
  }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String, purpose: String) throws(StockStorageError) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw failure(code, purpose: purpose) }
  }

  /// The first column of the first row of a query.
  func integer(_ sql: String, purpose: String) throws(StockStorageError) -> Int64 {
    let statement = try prepare(sql, purpose: purpose)
    defer { statement.reset() }
    guard try statement.step() else {
      throw context.invalid("\(sql) returned no row", purpose: purpose)
    }
    return statement.integer(at: 0)
  }

  /// The first column of the first row of a query, as text.
  func text(_ sql: String, purpose: String) throws(StockStorageError) -> String {
    let statement = try prepare(sql, purpose: purpose)
    defer { statement.reset() }
    guard try statement.step(), let text = statement.text(at: 0) else {
      throw context.invalid("\(sql) returned no text", purpose: purpose)
    }
    return text
  }

  /// Whether the store file the connection has open is no longer the one at its path:
  /// removed, renamed or replaced (SQLite's `SQLITE_FCNTL_HAS_MOVED`).
  var hasMoved: Bool {
    var moved: Int32 = 0
    let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
    return code == SQLITE_OK && moved != 0
  }

  /// The row id of the last row inserted on this connection.
  var lastInsertedRow: Int64 {
    sqlite3_last_insert_rowid(handle)
  }

  // MARK: - Transactions

  /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns,
  /// rolled back when it or the commit throws.
  ///
  /// `BEGIN IMMEDIATE` takes the write lock at once, waiting up to the busy
  /// timeout, so two writers never both read the same levels.
  func transaction<Result>(
    _ body: () throws(StockStorageError) -> Result
  ) throws(StockStorageError) -> Result {
    try statement(&begin, StoreStatements.begin, purpose: "starting a transaction").run()
    do {
      let result = try body()
      try statement(&commit, StoreStatements.commit, purpose: "committing a transaction").run()
      return result
    } catch {
      rollBack()
      throw error
    }
  }

  private func rollBack() {
    guard sqlite3_get_autocommit(handle) == 0 else { return }
    _ = try? statement(&rollback, StoreStatements.rollback, purpose: "rolling back a transaction")
      .run()
  }

  private func statement(_ slot: inout Statement?, _ sql: String, purpose: String)
    throws(StockStorageError) -> Statement
  {
    if let statement = slot { return statement }
    let statement = try prepare(sql, purpose: purpose)
    slot = statement
    return statement
  }

  /// Runs `body` with the connection's handle, for the few C calls that take it.
  func withHandle<Result>(_ body: (OpaquePointer) throws(StockStorageError) -> Result)
    throws(StockStorageError) -> Result
  {
    try body(handle)
  }

  // MARK: - Errors

  /// The storage error for a failed SQLite call, with SQLite's own message.
  func failure(_ code: Int32, purpose: String) -> StockStorageError {
    context.failure(code, connection: handle, purpose: purpose)
  }
}
