import JuiceMakerKit

/// Whether the store answers a shop's session.
enum ShopHealth: Hashable, Sendable {
  /// The store answered the last operation.
  case good
  /// Another process holds the store locked (SQLite's `SQLITE_BUSY` or `SQLITE_LOCKED`),
  /// or another session holds the rows or the schema lock past PostgreSQL's
  /// `lock_timeout` (`55P03`) or `statement_timeout` (`57014`).
  case busy
  /// The store cannot be reached: a server that restarts or does not answer, a file
  /// that cannot be opened.
  case reconnecting
  /// The store's file was removed, renamed or replaced under the shop: the shop writes
  /// nothing more until it is started again.
  case replaced

  /// The health a storage failure shows: `.replaced` for a replaced store file, `.busy`
  /// for a held lock, else `.reconnecting`.
  init(_ error: StockStorageError) {
    if case .replaced = error {
      self = .replaced
      return
    }
    self = Self.busyCodes.contains { error.cause.code.hasPrefix($0) } ? .busy : .reconnecting
  }

  /// The engine codes of a lock another process or session holds: SQLite's result
  /// codes (`SQLITE_BUSY (5)`, …) and PostgreSQL's SQLSTATEs of a lock or statement
  /// timeout.
  private static let busyCodes = ["SQLITE_BUSY", "SQLITE_LOCKED", "55P03", "57014"]

  /// The catalog key of the status line's words, or `nil` when all is well.
  var statusKey: String? {
    switch self {
    case .good: nil
    case .busy: "shop.health.busy"
    case .reconnecting: "shop.health.reconnecting"
    case .replaced: "shop.health.replaced"
    }
  }
}
