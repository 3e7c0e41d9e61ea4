public import JuiceMakerKit

// MARK: - MenuStorage

/// The menu layer in two tables of the store file, `menu_file` and `menu_publication`.
///
/// A publication is one `BEGIN IMMEDIATE` transaction, like an operation: it checks the
/// layer's version and the names to retire once it holds the write lock, so two shops
/// publishing at once cannot both pass. Other processes' `waitForChanges(timeout:)` see
/// its commit through `PRAGMA data_version`, as they see an operation's.
///
/// A storage opened for no fruits (`fruits: []`) reads no stock row, so a command that
/// reads the menu layer before it knows the fruits opens the store cheaply.
extension SQLiteStockStorage: MenuStorage {
  /// Reads the newest publication's version, 0 before the first, with one prepared
  /// statement.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read.
  public func menuVersion() throws(StockStorageError) -> Int {
    try tables.withLock { tables throws(StockStorageError) in try tables.menuVersion() }
  }

  /// Reads the layer's files, in name order (by their UTF-8 bytes), and its version, with
  /// one statement.
  ///
  /// - Throws: `StockStorageError.invalid` when a file's row is damaged; other
  ///   `StockStorageError`s when the store cannot be read.
  /// - Complexity: O(*n*) in the total size of the files.
  public func publishedMenu() throws(StockStorageError) -> PublishedMenu {
    try tables.withLock { tables throws(StockStorageError) in try tables.publishedMenu() }
  }

  /// Publishes and retires files in one `BEGIN IMMEDIATE` transaction, journaled as one
  /// row of `menu_publication`.
  ///
  /// - Returns: The publication, or `nil` when the layer's version was not
  ///   `expectingVersion` or a name to retire is not in the layer; nothing was written.
  /// - Throws: `StockStorageError.invalid` for names no publication can hold (empty, with
  ///   a line feed or a NUL, given twice, or both published and retired), before
  ///   anything is written; `.replaced` when the path no longer names the store's files;
  ///   `.unavailable` when the store cannot be written.
  public func publish(
    _ files: [PublishedFile], retiring names: [String], by editor: String,
    expectingVersion: Int
  ) throws(StockStorageError) -> MenuPublication? {
    try tables.withLock { tables throws(StockStorageError) in
      try tables.publish(files, retiring: names, by: editor, expectingVersion: expectingVersion)
    }
  }

  /// Reads the publications, newest first.
  ///
  /// - Parameter limit: The most to return; `nil` for all.
  /// - Throws: `StockStorageError.invalid` when a publication's row is damaged; other
  ///   `StockStorageError`s when the store cannot be read.
  public func menuPublications(limit: Int?) throws(StockStorageError) -> [MenuPublication] {
    try tables.withLock { tables throws(StockStorageError) in
      try tables.menuPublications(limit: limit)
    }
  }
}
