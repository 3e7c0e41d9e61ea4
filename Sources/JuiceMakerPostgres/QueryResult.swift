import CLibPQ

/// The rows of one successful statement, in libpq's text format.
///
/// Not safe to share between threads; the result is freed when the value is
/// released.
final class QueryResult {
  private let handle: OpaquePointer

  /// Takes ownership of a result libpq returned.
  init(_ handle: OpaquePointer) {
    self.handle = handle
  }

  deinit {
    PQclear(handle)
  }

  /// The number of rows.
  var count: Int {
    Int(PQntuples(handle))
  }

  /// The text of a field, or `nil` for SQL `NULL`.
  func text(_ row: Int, _ column: Int) -> String? {
    let row = Int32(row)
    let column = Int32(column)
    guard PQgetisnull(handle, row, column) == 0, let value = PQgetvalue(handle, row, column) else {
      return nil
    }
    return String(cString: value)
  }

  /// A field as a whole number, or `nil` for `NULL` or text that is not one.
  func integer(_ row: Int, _ column: Int) -> Int64? {
    text(row, column).flatMap { Int64($0) }
  }
}
