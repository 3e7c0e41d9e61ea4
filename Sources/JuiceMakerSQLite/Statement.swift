import CSQLite
import JuiceMakerKit

/// A prepared statement, reused for every operation and finalized when released.
///
/// Every method that binds or steps reports failures as `StockStorageError`.
final class Statement {
  private let handle: OpaquePointer
  private let context: FailureContext
  /// What the statement does, for the errors it reports.
  let purpose: String

  init(handle: OpaquePointer, context: FailureContext, purpose: String) {
    self.handle = handle
    self.context = context
    self.purpose = purpose
  }

  deinit {
    sqlite3_finalize(handle)
  }

  // MARK: - Binding

  /// Binds an integer to the 1-based parameter `index`.
  func bind(_ value: Int64, at index: Int32) throws(StockStorageError) {
    try check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds a floating-point number to the 1-based parameter `index`.
  func bind(_ value: Double, at index: Int32) throws(StockStorageError) {
    try check(sqlite3_bind_double(handle, index, value))
  }

  /// Binds NULL to the 1-based parameter `index`.
  func bindNull(at index: Int32) throws(StockStorageError) {
    try check(sqlite3_bind_null(handle, index))
  }

  /// Binds text to the 1-based parameter `index`; SQLite keeps its own copy.
  func bind(_ value: String, at index: Int32) throws(StockStorageError) {
    try check(sqlite3_bind_text(handle, index, value, -1, Statement.transient))
  }

  /// Binds bytes to the 1-based parameter `index` as a blob, an empty one for no bytes;
  /// SQLite keeps its own copy.
  func bind(_ bytes: [UInt8], at index: Int32) throws(StockStorageError) {
    // A null pointer would bind NULL, not an empty blob.
    guard !bytes.isEmpty else { return try check(sqlite3_bind_zeroblob(handle, index, 0)) }
    let code = bytes.withUnsafeBytes { buffer in
      sqlite3_bind_blob64(
        handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), Statement.transient)
    }
    try check(code)
  }

  /// `SQLITE_TRANSIENT`, which Swift cannot import: SQLite copies the bound bytes.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private func check(_ code: Int32) throws(StockStorageError) {
    guard code == SQLITE_OK else {
      throw context.failure(code, connection: sqlite3_db_handle(handle), purpose: purpose)
    }
  }

  // MARK: - Stepping

  /// Steps once.
  ///
  /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
  /// - Throws: `StockStorageError` when the step fails; the statement is reset then.
  func step() throws(StockStorageError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW:
      return true
    case SQLITE_DONE:
      return false
    default:
      let failure = context.failure(
        code, connection: sqlite3_db_handle(handle), purpose: purpose)
      sqlite3_reset(handle)
      throw failure
    }
  }

  /// Runs a statement that returns no rows, then resets it for reuse.
  func run() throws(StockStorageError) {
    defer { reset() }
    while try step() {}
  }

  /// Makes the statement ready to run again; bindings are kept.
  func reset() {
    sqlite3_reset(handle)
  }

  // MARK: - Reading columns

  /// The integer in the 0-based `column` of the current row.
  func integer(at column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  /// The floating-point number in the 0-based `column` of the current row.
  func double(at column: Int32) -> Double {
    sqlite3_column_double(handle, column)
  }

  /// Whether the 0-based `column` of the current row is NULL.
  func isNull(at column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// The bytes of the blob in the 0-based `column` of the current row; `nil` when the
  /// column holds no blob.
  func bytes(at column: Int32) -> [UInt8]? {
    guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// The text in the 0-based `column` of the current row; `nil` for NULL.
  func text(at column: Int32) -> String? {
    guard let characters = sqlite3_column_text(handle, column) else { return nil }
    return String(cString: characters)
  }
}
