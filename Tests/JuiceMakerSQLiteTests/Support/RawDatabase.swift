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
}
