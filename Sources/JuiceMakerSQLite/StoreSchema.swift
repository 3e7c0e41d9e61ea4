import Foundation
import JuiceMakerKit

/// The store's schema, version 1, and how an opened file is checked against it.
///
/// ```sql
/// CREATE TABLE stock (
///   id INTEGER PRIMARY KEY,
///   fruit TEXT NOT NULL UNIQUE,
///   level INTEGER NOT NULL CHECK (typeof(level) = 'integer' AND level >= 0),
///   initial INTEGER NOT NULL CHECK (typeof(initial) = 'integer' AND initial >= 0));
/// CREATE TABLE journal (
///   id INTEGER PRIMARY KEY,
///   time REAL NOT NULL,          -- seconds since 1970
///   shop TEXT NOT NULL,
///   kind TEXT NOT NULL CHECK (kind IN ('order', 'add', 'remove', 'set')),
///   subject TEXT NOT NULL,
///   count INTEGER NOT NULL,
///   outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused')),
///   changes TEXT NOT NULL);      -- JSON object: fruit id -> level delta
/// ```
///
/// New stores use 1 KiB pages. The file is marked with `PRAGMA application_id` and
/// `PRAGMA user_version`, so a store is told apart from any other SQLite file without
/// reading its tables. For every stock row, `level = initial + Σ changes[fruit]` over
/// the journal, and an audit can check it in SQL:
///
/// ```sql
/// SELECT fruit, level, initial + coalesce((SELECT sum(value) FROM journal,
///   json_each(journal.changes) WHERE key = fruit), 0) FROM stock;
/// ```
enum StoreSchema {
  /// `PRAGMA application_id` of every store: "JMKR" in ASCII.
  static let applicationID: Int64 = 0x4A4D_4B52
  /// `PRAGMA user_version` of the schema this version writes and reads.
  static let version: Int64 = 1
  /// The page size of a new store, in bytes.
  ///
  /// An operation writes about two pages to the log (its stock page and the
  /// journal's last page), so small pages mean less to write: at `.normal`
  /// durability, 1 KiB pages measured about 50% more operations per second than
  /// SQLite's default 4 KiB.
  static let pageSize = 1024
  /// Pages in the log before a commit checkpoints it into the file: 4 MiB of 1 KiB
  /// pages, SQLite's default log size.
  static let checkpointPages = 4096

  private static let creation = """
    CREATE TABLE stock (
      id INTEGER PRIMARY KEY,
      fruit TEXT NOT NULL UNIQUE,
      level INTEGER NOT NULL CHECK (typeof(level) = 'integer' AND level >= 0),
      initial INTEGER NOT NULL CHECK (typeof(initial) = 'integer' AND initial >= 0)
    );
    CREATE TABLE journal (
      id INTEGER PRIMARY KEY,
      time REAL NOT NULL,
      shop TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('order', 'add', 'remove', 'set')),
      subject TEXT NOT NULL,
      count INTEGER NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused')),
      changes TEXT NOT NULL
    );
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = \(version);
    """

  /// What an opened file holds.
  enum State: Equatable {
    /// Nothing yet: a new store.
    case empty
    /// A store of the current schema.
    case current
    /// A store of a schema version this version does not know.
    case unknownVersion(Int64)
    /// A database of another application.
    case foreign(applicationID: Int64)
    /// An unmarked database that already holds tables.
    case unmarked
  }

  /// Makes sure the opened file is a store of the current schema in WAL mode,
  /// creating the schema in an empty file.
  ///
  /// Nothing is written to a file that is not an empty file or a store.
  ///
  /// - Throws: `StockStorageError.invalid` for a file that is not a store of this
  ///   schema version; `.unavailable` when it cannot be read or changed.
  static func prepare(_ database: Database) throws(StockStorageError) {
    // Several processes may open a new file at once. SQLite answers some lock
    // conflicts there at once with SQLITE_BUSY, without waiting (switching the
    // journal mode, for one), so a busy failure is tried again until the busy
    // timeout has passed.
    let deadline = ContinuousClock.now + database.busyTimeout
    while true {
      do {
        try prepareOnce(database)
        return
      } catch {
        guard case .unavailable = error, ContinuousClock.now < deadline else { throw error }
        Thread.sleep(forTimeInterval: 0.005)
      }
    }
  }

  private static func prepareOnce(_ database: Database) throws(StockStorageError) {
    var state = try snapshotState(of: database)
    if state == .empty {
      // Before the first write, which fixes the page size for good.
      try database.execute("PRAGMA page_size = \(pageSize)")
      try useWAL(database)
      state = try database.transaction { () throws(StockStorageError) -> State in
        // Another process may have created the schema since the first look.
        let state = try self.state(of: database)
        guard state == .empty else { return state }
        try database.execute(creation)
        return .current
      }
    }
    switch state {
    case .current:
      try useWAL(database)
    case .empty:
      throw .invalid(path: database.path, detail: "the schema could not be created")
    case .unknownVersion(let version):
      throw .invalid(
        path: database.path,
        detail: "it has schema version \(version); this version reads version \(self.version)")
    case .foreign(let applicationID):
      throw .invalid(
        path: database.path,
        detail: "it belongs to another application (application_id \(applicationID))")
    case .unmarked:
      throw .invalid(path: database.path, detail: "it holds the tables of another application")
    }
  }

  /// The state as one read transaction sees it: a creator's schema and marks are
  /// committed together, so the three reads of `state(of:)` must see one snapshot.
  private static func snapshotState(of database: Database) throws(StockStorageError) -> State {
    try database.execute("BEGIN")
    do {
      let state = try self.state(of: database)
      try database.execute("COMMIT")
      return state
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
  }

  private static func state(of database: Database) throws(StockStorageError) -> State {
    let applicationID = try database.integer("PRAGMA application_id")
    let version = try database.integer("PRAGMA user_version")
    if applicationID == self.applicationID {
      return version == self.version ? .current : .unknownVersion(version)
    }
    guard applicationID == 0 else { return .foreign(applicationID: applicationID) }
    let objects = try database.integer("SELECT count(*) FROM sqlite_master")
    return version == 0 && objects == 0 ? .empty : .unmarked
  }

  /// Switches the file to write-ahead logging, which persists in the file.
  private static func useWAL(_ database: Database) throws(StockStorageError) {
    guard try database.text("PRAGMA journal_mode") != "wal" else { return }
    let mode = try database.text("PRAGMA journal_mode = WAL")
    guard mode == "wal" else {
      throw .unavailable(
        path: database.path, detail: "cannot switch to write-ahead logging (mode \(mode))")
    }
  }
}
