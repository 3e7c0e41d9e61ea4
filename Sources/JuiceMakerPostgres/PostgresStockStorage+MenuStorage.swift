public import JuiceMakerKit

// MARK: - MenuStorage

/// The menu layer in two tables of the store, `menu_file` and `menu_publication`.
///
/// A publication is one transaction that takes `menu_publication`'s lock before it checks
/// the layer's version and the names to retire, so two shops publishing at once cannot
/// both pass; readers never wait for it. After its `COMMIT` it is announced with `NOTIFY
/// juice_maker_changes`, as an operation is, so `waitForChanges(timeout:)` wakes the
/// shops of every machine.
///
/// A storage opened for no fruits (`fruits: []`) reads no stock row, so a command that
/// reads the menu layer before it knows the fruits opens the store cheaply.
extension PostgresStockStorage: MenuStorage {
  /// Reads the newest publication's version, 0 before the first, with one prepared
  /// statement.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read.
  public func menuVersion() throws(StockStorageError) -> Int {
    try sessions.withSession { session throws(StockStorageError) in try session.menuVersion() }
  }

  /// Reads the layer's files, in name order (by their UTF-8 bytes, the `"C"` collation),
  /// and its version, with one statement.
  ///
  /// - Throws: `StockStorageError.invalid` when a file's row is damaged; other
  ///   `StockStorageError`s when the store cannot be read.
  /// - Complexity: O(*n*) in the total size of the files.
  public func publishedMenu() throws(StockStorageError) -> PublishedMenu {
    try sessions.withSession { session throws(StockStorageError) in try session.publishedMenu() }
  }

  /// Publishes and retires files in one transaction, logged as one row of
  /// `menu_publication` and announced after its commit.
  ///
  /// - Returns: The publication, or `nil` when the layer's version was not
  ///   `expectingVersion` or a name to retire is not in the layer; nothing was written.
  /// - Throws: `StockStorageError.invalid` for names no publication can hold (empty, with
  ///   a line feed or a NUL, given twice, or both published and retired), before
  ///   anything is sent; `.unavailable` when the server fails or another session holds
  ///   the menu's lock past the lock timeout (nothing was written), or when the
  ///   connection was lost after `COMMIT` was sent (the publication may have been kept:
  ///   `menuPublications(limit:)` tells).
  public func publish(
    _ files: [PublishedFile], retiring names: [String], by editor: String,
    expectingVersion: Int
  ) throws(StockStorageError) -> MenuPublication? {
    try sessions.withSession { session throws(StockStorageError) in
      try session.publish(files, retiring: names, by: editor, expectingVersion: expectingVersion)
    }
  }

  /// Reads the publications, newest first.
  ///
  /// - Parameter limit: The most to return; `nil` for all.
  /// - Throws: `StockStorageError.invalid` when a publication's row is damaged; other
  ///   `StockStorageError`s when the store cannot be read.
  public func menuPublications(limit: Int?) throws(StockStorageError) -> [MenuPublication] {
    try sessions.withSession { session throws(StockStorageError) in
      try session.menuPublications(limit: limit)
    }
  }
}
