import CSQLite

/// A plain SQLite connection, for preparing files the storage must refuse.
final class RawDatabase {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let handle: OpaquePointer

  init(path: String) throws {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard let handle else { throw Failure(description: "cannot open \(path)") }
    self.handle = handle
    guard code == SQLITE_OK else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  func execute(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
  }

  /// A value bound to a statement's parameter.
  enum Value {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
  }

  /// Every row of a query, each column as text ("" for NULL), with `arguments` bound to
  /// the parameters `?1`, `?2`, ….
  func rows(_ sql: String, _ arguments: [Value] = []) throws -> [[String]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    for (offset, argument) in arguments.enumerated() {
      let index = Int32(offset + 1)
      let code =
        switch argument {
        case .integer(let value): sqlite3_bind_int64(statement, index, value)
        case .real(let value): sqlite3_bind_double(statement, index, value)
        case .text(let value):
          sqlite3_bind_text(
            statement, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        case .null: sqlite3_bind_null(statement, index)
        }
      guard code == SQLITE_OK else {
        throw Failure(description: String(cString: sqlite3_errmsg(handle)))
      }
    }
    var rows: [[String]] = []
    var code = sqlite3_step(statement)
    while code == SQLITE_ROW {
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        })
      code = sqlite3_step(statement)
    }
    guard code == SQLITE_DONE else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    return rows
  }
}
