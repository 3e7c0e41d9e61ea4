public import FoundationEssentials

/// A storage that also holds a menu layer: packs and string catalogs published to the
/// store, so every shop sharing it sells the same menu.
///
/// The layer is a set of files by name, and a log of publications. Each publication
/// publishes and retires files in one transaction and raises the layer's version by one;
/// the log says who published, when, and which files. A storage wakes the waiters of
/// `waitForChanges(timeout:)` on a publication, as it does on a stock change.
///
/// The storage decides nothing about the files: the caller checks them before it
/// publishes, against the version it read, and `publish(_:retiring:by:expectingVersion:)`
/// refuses when another publication came in between.
public protocol MenuStorage: StockStorage {
  /// The menu layer's version: the number of publications, 0 before the first.
  ///
  /// One cheap read, for a shop that polls for a changed menu.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read.
  func menuVersion() throws(StockStorageError) -> Int

  /// The files of the menu layer now, in name order, with the version they are at.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read.
  func publishedMenu() throws(StockStorageError) -> PublishedMenu

  /// Publishes and retires files in one transaction, journaled as one publication.
  ///
  /// A published file replaces the layer's file of the same name; a retired name is
  /// removed. Nothing is written when the layer's version is not `expectingVersion`.
  ///
  /// - Parameters:
  ///   - files: The files to add or replace.
  ///   - names: The names of files to remove; each must be in the layer.
  ///   - editor: Who publishes, for the log.
  ///   - expectingVersion: The version the caller checked the files against.
  /// - Returns: The publication, or `nil` when the version was not `expectingVersion`
  ///   (or a name to retire is not in the layer), and nothing was written.
  /// - Throws: `StockStorageError` when the store cannot be written.
  func publish(
    _ files: [PublishedFile], retiring names: [String], by editor: String,
    expectingVersion: Int
  ) throws(StockStorageError) -> MenuPublication?

  /// The publications, newest first.
  ///
  /// - Parameter limit: The most to return; `nil` for all.
  /// - Throws: `StockStorageError` when the store cannot be read.
  func menuPublications(limit: Int?) throws(StockStorageError) -> [MenuPublication]
}

/// A pack (`.json`) or string catalog (`.xcstrings`) in a store's menu layer.
public struct PublishedFile: Sendable, Hashable {
  /// The file's name, such as `Seasonal.json`; it replaces the file of that name of the
  /// built-in layer.
  public let name: String
  /// The file's bytes, as published.
  public let contents: [UInt8]

  /// Creates a file.
  public init(name: String, contents: [UInt8]) {
    self.name = name
    self.contents = contents
  }
}

/// A store's menu layer at one version.
public struct PublishedMenu: Sendable, Hashable {
  /// The layer's version: the number of publications, 0 before the first.
  public let version: Int
  /// The files, in name order.
  public let files: [PublishedFile]

  /// Creates a menu layer.
  public init(version: Int, files: [PublishedFile]) {
    self.version = version
    self.files = files
  }

  /// The layer of a store nothing was published to.
  public static let empty = PublishedMenu(version: 0, files: [])
}

/// One change of a store's menu layer: who, when, which files.
public struct MenuPublication: Sendable, Hashable {
  /// The layer's version after the publication.
  public let version: Int
  /// When it was published.
  public let date: Date
  /// Who published it.
  public let editor: String
  /// The names of the files added or replaced, in name order.
  public let published: [String]
  /// The names of the files removed, in name order.
  public let retired: [String]

  /// Creates a publication.
  public init(version: Int, date: Date, editor: String, published: [String], retired: [String]) {
    self.version = version
    self.date = date
    self.editor = editor
    self.published = published
    self.retired = retired
  }
}
