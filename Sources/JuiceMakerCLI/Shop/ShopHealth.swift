import JuiceMakerKit

/// Whether the store answers a shop's session.
enum ShopHealth: Hashable, Sendable {
  /// The store answered the last operation.
  case good
  /// Another process holds the store locked (SQLite's `SQLITE_BUSY` or `SQLITE_LOCKED`).
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
    let code = error.cause.code
    self = code.hasPrefix("SQLITE_BUSY") || code.hasPrefix("SQLITE_LOCKED") ? .busy : .reconnecting
  }

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
