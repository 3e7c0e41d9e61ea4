import FoundationEssentials
import JuiceMakerCatalog
public import JuiceMakerKit

/// Stock levels kept durably in an SQLite file that any number of processes share.
///
/// Each `juice-maker` process (each shop) opens the same store file; every
/// operation is one `BEGIN IMMEDIATE` transaction that reads the levels, applies the
/// change, and writes the changed levels together with one journal entry, so no
/// update is lost and no fruit is oversold across processes. The file uses
/// write-ahead logging; a writer that finds the store locked waits up to the busy
/// timeout.
///
/// ```swift
/// let storage = try SQLiteStockStorage(
///   path: "shops/store.sqlite", fruits: catalog.fruits, creating: .ifMissing)
/// let store = try FruitStore(storage: storage)
/// let shop = JuiceMaker(name: "downtown", catalog: catalog, store: store)
/// try shop.make("banana-juice")
/// let entry = try storage.journal(JournalQuery(limit: 1))[0]
/// print(entry.operation.editor, entry.operation.action, entry.changes)
/// // downtown order("banana-juice", count: 1)
/// //   [StockChange.Level(fruit: "banana", before: 10, after: 8)]
/// ```
///
/// Whether opening may create the store is the caller's choice (`StoreCreation`):
/// `.ifMissing` creates it on first use, `.never` refuses a path with no store (a
/// mistyped path stays a mistake, not a new store), and `.always` creates a new store
/// and refuses an existing one. A new store holds each fruit's initial stock. A fruit
/// that a later pack adds gets a row with its initial stock when a storage that holds
/// it opens; the row of a fruit no longer given is kept, hidden, and shows its old
/// level again when the fruit returns.
///
/// The storage is safe to use from many threads; each instance serializes its own
/// operations on its one connection.
public final class SQLiteStockStorage: StockStorage {
  /// The store file.
  public let path: String
  /// The fruits this storage holds levels for: the given fruits, in the given order.
  ///
  /// Rows of fruits not given are kept in the file but hidden.
  public let fruits: [Fruit.ID]
  /// How durably each operation is kept.
  public let durability: Durability
  /// Whether opening this storage created its store: the schema, and a stock row with
  /// its initial stock for each fruit.
  public let createdStore: Bool
  let tables: LockedValue<StockTables>
  /// The last `data_version` a watcher saw.
  private let watched: LockedValue<Int64?>

  public var location: String { path }

  /// Opens the store file at `path`, creating the store when `creating` allows.
  ///
  /// A path holds no store when no file is there, or the file is empty. A new file
  /// is created with mode 0600, and each missing parent directory with mode 0700;
  /// existing files and directories keep their modes. Nothing is written to a file
  /// that is not a store, and under `.never` no file or directory is created.
  ///
  /// - Parameters:
  ///   - path: The store file.
  ///   - fruits: The fruits to hold levels for, in level order; a fruit the store
  ///     has no row for gets one with its `initialStock`. With none, opening reads no
  ///     stock row: enough to read the menu layer before the fruits are known.
  ///   - durability: How durably each operation is kept; `.full` by default.
  ///   - busyTimeout: How long an operation waits for another process's lock.
  ///   - creating: Whether to create the store: `.ifMissing` (the default) when the
  ///     path holds none, `.never`, or `.always` (a new store only).
  /// - Throws: `StockStorageError.missing` under `.never` when the path holds no
  ///   store; `.alreadyExists` under `.always` when it holds one, which is left
  ///   unchanged; `.invalid` for a file that is not a store (not
  ///   SQLite, damaged, another application's, an unknown schema version) and for a
  ///   fruit given twice or with negative initial stock; `.unavailable` when the file
  ///   or its directory cannot be created, read or written, or another process holds
  ///   it locked past the busy timeout.
  public init(
    path: String, fruits: [Fruit], durability: Durability = .full,
    busyTimeout: Duration = .seconds(15), creating: StoreCreation = .ifMissing
  ) throws(StockStorageError) {
    try StockStorageError.checkFruits(fruits, store: path)
    try StoreFile.prepare(path, creating: creating)
    let database = try Database(path: path, busyTimeout: busyTimeout)
    try database.execute(
      StoreStatements.connectionPragmas(durability), purpose: "configuring the connection")
    let created = try StoreSchema.prepare(database, creating: creating)
    let tables = try StockTables(database: database, fruits: fruits)
    self.path = path
    self.fruits = tables.fruits
    self.durability = durability
    self.createdStore = created
    self.tables = LockedValue(tables)
    self.watched = LockedValue(nil)
  }

  // MARK: - StockStorage

  /// Reads every level with one query, as of the last committed operation of any
  /// process.
  ///
  /// - Returns: One level per fruit, in the order of `fruits`.
  /// - Throws: `StockStorageError` when the store cannot be read.
  /// - Complexity: O(*n*) in the number of stock rows.
  public func levels() throws(StockStorageError) -> [Int] {
    try tables.withLock { tables throws(StockStorageError) in try tables.levels() }
  }

  /// Runs one `BEGIN IMMEDIATE` transaction: the request id is looked up and the
  /// levels read in it, current across every process, and what `decide` returns is
  /// committed together, or nothing is.
  ///
  /// Inside the transaction, once it holds the write lock, the storage checks that the
  /// path still names the store file, `-wal` and `-shm` it has open, and checks again
  /// after the commit: an entry is returned only when it is in the files the path names.
  ///
  /// - Throws: `StockStorageError` when the transaction could not be kept; then no
  ///   level changed and no entry was written. `.replaced` when the path no longer
  ///   names the store's files (and from then on for every operation);
  ///   `.outcomeUnknown` when that happened between the check and the commit.
  /// - Complexity: O(*n* + *c*) for *n* stock rows and *c* changed levels, plus one
  ///   commit (an `fsync` at `.full` durability).
  public func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry? {
    try tables.withLock { tables throws(StockStorageError) in
      try tables.transact(id, touching: touching, decide)
    }
  }

  /// The journal entries `query` selects, newest first, of every process sharing
  /// the store.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read or an entry is
  ///   damaged.
  /// - Complexity: O(*k*) for *k* entries returned, with a filter on the editor or
  ///   the sequence number; a `since` filter scans the journal.
  public func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry] {
    try tables.withLock { tables throws(StockStorageError) in try tables.journal(query) }
  }

  /// Runs SQL on the store's connection, under its lock: for the benchmark, which fills a
  /// store with a million journal entries in one statement.
  package func execute(_ sql: String, purpose: String) throws(StockStorageError) {
    try tables.withLock { tables throws(StockStorageError) in
      try tables.execute(sql, purpose: purpose)
    }
  }

  /// Counts a report with `GROUP BY`, reading no entry into memory.
  public func report(_ query: ReportQuery) throws(StockStorageError) -> [ReportRow] {
    try tables.withLock { tables throws(StockStorageError) in try tables.report(query) }
  }

  /// Counts the entries `query` selects with one `count(*)`.
  public func journalCount(_ query: JournalQuery) throws(StockStorageError) -> Int {
    try tables.withLock { tables throws(StockStorageError) in try tables.journalCount(query) }
  }

  /// The newest `limits` entry of each fruit, read from the journal's index of them.
  public func limits() throws(StockStorageError) -> [Fruit.ID: StockLimits] {
    try tables.withLock { tables throws(StockStorageError) in try tables.limits() }
  }

  /// Polls `PRAGMA data_version` every 50 ms until another connection commits or
  /// `timeout` passes, checking each time that the path still names the store's files.
  ///
  /// The first call only notes the current version and returns. A shop watches its
  /// store this way all the time it is open, so a store file removed, renamed or
  /// replaced under it is found within a poll, even while no one orders.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read; `.replaced` when the
  ///   path no longer names the store's files.
  public func waitForChanges(timeout: Duration) throws(StockStorageError) {
    let deadline = ContinuousClock.now + timeout
    while true {
      let version = try tables.withLock { tables throws(StockStorageError) in
        try tables.changeCounter()
      }
      let changed = watched.withLock { last in
        defer { last = version }
        return last != version
      }
      if changed || ContinuousClock.now >= deadline { return }
      let rest = deadline - ContinuousClock.now
      Threads.sleep(
        seconds: min(
          0.05, max(0, Double(rest.components.seconds) + Double(rest.components.attoseconds) / 1e18)
        ))
    }
  }

  /// The level each stock row was created with, including the hidden rows of fruits
  /// this storage does not hold.
  ///
  /// For every fruit, the current level is its initial level plus the sum of its
  /// changes over the whole journal.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read.
  public func initialLevels() throws(StockStorageError) -> [Fruit.ID: Int] {
    try tables.withLock { tables throws(StockStorageError) in try tables.initialLevels() }
  }
}
