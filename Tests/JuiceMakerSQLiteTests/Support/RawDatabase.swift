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

  /// Every row of a query, each column as text ("" for NULL).
  func rows(_ sql: String) throws -> [[String]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[String]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        })
    }
    return rows
  }
}
