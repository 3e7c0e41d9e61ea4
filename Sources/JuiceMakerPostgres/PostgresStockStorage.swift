public import JuiceMakerKit

/// Stock levels and their journal kept in a PostgreSQL database that shops on many
/// machines share.
///
/// Each operation is one transaction that locks only the stock rows of the fruits it
/// touches (`SELECT … FOR UPDATE`, in fruit id order, so two operations never
/// deadlock), lets the operation change them, and writes the changed levels and one
/// journal row together. Orders on different fruits do not wait for each other. A
/// serialization failure or deadlock runs the transaction again, a bounded number of
/// times.
///
/// ```swift
/// let storage = try PostgresStockStorage(
///   uri: "postgresql://shop@db.example.com/juice", fruits: catalog.fruits, creating: .never)
/// let store = FruitStore(storage: storage)
/// let shop = JuiceMaker(name: "airport", catalog: catalog, store: store)
/// try shop.make("banana-juice")
/// print(try storage.journal(JournalQuery(limit: 1))[0].operation.editor)
/// // airport
/// ```
///
/// Whether opening may create the store's tables is the caller's choice
/// (`StoreCreation`): `.ifMissing` creates them in an empty database, `.never` refuses
/// an empty database (a mistyped database name stays a mistake, not a new store), and
/// `.always` creates them and refuses a database that holds a store already.
///
/// Every operation's request id is journaled under a unique constraint: an id that
/// is journaled already returns its first entry and changes nothing. When the
/// connection is lost, the storage connects again and runs the operation again
/// under the same id, so an operation whose `COMMIT` reached the server is found,
/// not applied twice. When it cannot connect again after `COMMIT` was sent, the
/// operation fails with `StockStorageError.outcomeUnknown`.
///
/// A committed operation is announced with `NOTIFY juice_maker_changes` right after
/// its `COMMIT`, in the same round trip; `waitForChanges(timeout:)` listens for it.
/// (A `NOTIFY` inside the transaction would hold a database-wide lock through every
/// commit's flush to disk, so operations on different fruits would wait for each
/// other.)
///
/// Every wait is bounded, as an SQLite store's busy timeout bounds its waits: a
/// statement waits at most `lockTimeout` (15 s by default) for a lock another session
/// holds (the rows of an operation, the schema lock while a store is created or
/// upgraded) and runs at most `statementTimeout` (30 s); a session of this program left
/// idle inside a transaction for that long is ended by the server, so a shop that drops
/// off the network mid-operation frees its rows. The connection URI's
/// `options=-c lock_timeout=…` (or `statement_timeout`, or `PGOPTIONS`) wins over both.
/// When a wait runs out, the operation fails with `StockStorageError.unavailable`
/// (SQLSTATE `55P03` or `57014`) saying that another session holds the rows or the
/// schema lock, and changes nothing; it is not tried again.
///
/// A store whose tables were changed behind its back is refused as damaged
/// (`StockStorageError.invalid`), never read as zeros: a column of another type than
/// the schema's (checked on every connection), a stock row that is missing or cannot be
/// read (a `NULL`, negative or fractional level, an invalid fruit id).
///
/// The storage is safe to use from many threads. Operations running at once each take a
/// connection of their own, up to `maximumConnections` (8 by default); more wait for
/// one to come back. Connections are made on first need and kept until the storage is
/// released, so a storage used by one thread at a time holds one connection, and shops
/// sharing one storage on many threads run their transactions side by side.
public final class PostgresStockStorage: StockStorage {
  /// The fruits this storage holds levels for, in level order.
  public let fruits: [Fruit.ID]
  /// The connection URI with its password replaced by `***`.
  public let location: String
  /// Whether opening this storage created its store: the tables, and a stock row with
  /// its initial stock for each fruit.
  public let createdStore: Bool
  let uri: ConnectionURI
  let connectTimeout: Duration
  private let timeouts: SessionTimeouts
  let sessions: SessionPool
  private let listener: LockedValue<Connection?>

  /// The channel every committed operation is announced on.
  static let channel = "juice_maker_changes"

  /// Whether `text` is a PostgreSQL connection URI (`postgresql://…` or
  /// `postgres://…`) rather than a file path.
  public static func isConnectionURI(_ text: String) -> Bool {
    ConnectionURI.isURI(text)
  }

  /// Connects to the database at `uri`, creating the store's tables in an empty
  /// database when `creating` allows.
  ///
  /// The store lives in the first schema of the connection's `search_path`; a schema
  /// without tables holds no store.
  ///
  /// libpq reads the URI, so its parameters (`host=/socket/dir`, `port`, `sslmode`,
  /// …) and environment (`PGPASSFILE`, `PGSSLMODE`, …) work as libpq documents.
  ///
  /// - Parameters:
  ///   - uri: A libpq connection URI.
  ///   - fruits: The fruits to hold levels for, in level order; a fruit the store
  ///     has no row for gets one with its `initialStock`. With none, opening reads no
  ///     stock row: enough to read the menu layer before the fruits are known.
  ///   - connectTimeout: How long connecting may take (libpq's `connect_timeout`,
  ///     at least 2 s), unless the URI or `PGCONNECT_TIMEOUT` sets one.
  ///   - creating: Whether to create the store: `.ifMissing` (the default) in an empty
  ///     database, `.never`, or `.always` (a new store only).
  ///   - lockTimeout: How long a statement waits for a lock another session holds
  ///     (`lock_timeout`), unless the URI's `options` set one.
  ///   - statementTimeout: How long a statement may run, and a session of this
  ///     storage may stay idle inside a transaction (`statement_timeout`,
  ///     `idle_in_transaction_session_timeout`), unless the URI's `options` set them.
  ///   - maximumConnections: The most connections operations running at once may
  ///     hold; at least 1.
  /// - Throws: `StockStorageError.missing` under `.never` for an empty database, which
  ///   is left empty; `.alreadyExists` under `.always` for a database that holds a
  ///   store, which is left unchanged; `.invalid` for a malformed URI, a database that
  ///   holds other tables or another application's marker, a newer schema version,
  ///   a damaged store, and a fruit given twice or with negative initial stock;
  ///   `.unavailable` when the server cannot be reached, refuses the login, or fails,
  ///   or another session holds the schema lock past `lockTimeout`.
  public init(
    uri: String, fruits: [Fruit], connectTimeout: Duration = .seconds(5),
    creating: StoreCreation = .ifMissing, lockTimeout: Duration = .seconds(15),
    statementTimeout: Duration = .seconds(30), maximumConnections: Int = 8
  ) throws(StockStorageError) {
    let timeouts = SessionTimeouts(lock: lockTimeout, statement: statementTimeout)
    let parsed = ConnectionURI(uri)
    let location = parsed.redacted
    func invalid(_ message: String, _ purpose: String) -> StockStorageError {
      .invalid(store: location, cause: StorageFailure(code: "", message: message, purpose: purpose))
    }
    try StockStorageError.checkFruits(fruits, store: location)
    if let problem = parsed.problem {
      throw invalid(problem, "reading the connection URI")
    }
    let connection: Connection
    do {
      connection = try Connection(uri: parsed, connectTimeout: connectTimeout, timeouts: timeouts)
    } catch {
      throw .unavailable(store: location, cause: error.failure("connecting"))
    }
    let created: Bool
    do {
      created = try Schema.prepare(connection, creating: creating)
    } catch {
      switch error {
      case .database(let error, let purpose):
        throw .unavailable(
          store: location,
          cause: purpose == Schema.lockPurpose
            ? error.failure(purpose, waitingFor: "the schema lock") : error.failure(purpose))
      case .foreign(let message):
        throw invalid(message, "reading the schema")
      case .newerVersion(let version):
        throw invalid(
          "it has schema version \(version); this version reads version \(Schema.version)",
          "reading the schema")
      case .missing:
        throw .missing(
          store: location,
          cause: StorageFailure(
            code: "", message: "the database holds no tables", purpose: "opening the store"))
      case .alreadyExists(let version):
        throw .alreadyExists(
          store: location,
          cause: StorageFailure(
            code: "", message: "it holds a store of schema version \(version)",
            purpose: "creating the store"))
      }
    }
    let session = try Session(
      connection: connection, fruits: fruits, location: location)
    self.sessions = SessionPool(first: session, maximum: maximumConnections) {
      () throws(StockStorageError) in
      let connection: Connection
      do throws(PostgresError) {
        connection = try Connection(
          uri: parsed, connectTimeout: connectTimeout, timeouts: timeouts)
      } catch {
        throw .unavailable(store: location, cause: error.failure("connecting"))
      }
      return try Session(connection: connection, fruits: fruits, location: location)
    }
    self.fruits = fruits.map(\.id)
    self.location = location
    self.createdStore = created
    self.uri = parsed
    self.connectTimeout = connectTimeout
    self.timeouts = timeouts
    self.listener = LockedValue(nil)
  }

  // MARK: - StockStorage

  /// Reads every level with one query, as of the last committed operation.
  ///
  /// - Returns: One level per fruit, in the order of `fruits`.
  /// - Throws: `StockStorageError.invalid` when a stock row is missing or its level
  ///   cannot be read; `.unavailable` when the server cannot be reached or read.
  public func levels() throws(StockStorageError) -> [Int] {
    try sessions.withSession { session throws(StockStorageError) in try session.levels() }
  }

  /// Runs one transaction on the storage's connection: the touched rows are locked
  /// in fruit order and the request id looked up, and what `decide` returns is
  /// committed with its journal row and announced to the other connections.
  ///
  /// - Throws: `StockStorageError.invalid` when a touched stock row is missing or its
  ///   level cannot be read (nothing is written); `.unavailable` when the server cannot
  ///   be reached or fails, or another session holds a touched row past the lock
  ///   timeout; `.outcomeUnknown` when the connection was lost after `COMMIT` was sent
  ///   and no new connection could look the request id up.
  public func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry? {
    try sessions.withSession { session throws(StockStorageError) in
      try session.transact(id, touching: touching, decide)
    }
  }

  /// The journal, newest entry first, filtered by `query`.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read or an entry is
  ///   damaged.
  public func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry] {
    try sessions.withSession { session throws(StockStorageError) in try session.journal(query) }
  }

  /// Counts a report with `GROUP BY` on the server, reading no entry into memory.
  public func report(_ query: ReportQuery) throws(StockStorageError) -> [ReportRow] {
    try sessions.withSession { session throws(StockStorageError) in try session.report(query) }
  }

  /// Counts the entries `query` selects with one `count(*)` on the server.
  public func journalCount(_ query: JournalQuery) throws(StockStorageError) -> Int {
    try sessions.withSession { session throws(StockStorageError) in
      try session.journalCount(query)
    }
  }

  /// The newest `limits` entry of each fruit, read from the journal's index of them.
  public func limits() throws(StockStorageError) -> [Fruit.ID: StockLimits] {
    try sessions.withSession { session throws(StockStorageError) in try session.limits() }
  }

  /// Waits until another connection announces a committed operation
  /// (`LISTEN juice_maker_changes`), or `timeout` passes.
  ///
  /// The first call opens a second connection that listens from then on.
  ///
  /// - Throws: `StockStorageError.unavailable` when the listening connection is lost
  ///   and cannot be made again.
  public func waitForChanges(timeout: Duration) throws(StockStorageError) {
    try listener.withLock { listener throws(StockStorageError) in
      do throws(PostgresError) {
        if listener == nil || listener?.isOpen == false {
          let connection = try Connection(
            uri: uri, connectTimeout: connectTimeout, timeouts: timeouts)
          try connection.execute("LISTEN \(Self.channel)")
          listener = connection
        }
        guard let connection = listener else { return }
        _ = try connection.waitForNotification(timeout: timeout)
      } catch {
        listener = nil
        throw .unavailable(store: location, cause: error.failure("waiting for changes"))
      }
    }
  }

  /// The level each stock row was created with, including the rows of fruits this
  /// storage does not hold.
  ///
  /// For every fruit, the current level is its initial level plus the sum of its
  /// changes over the whole journal.
  ///
  /// - Throws: `StockStorageError` when the store cannot be read.
  public func initialLevels() throws(StockStorageError) -> [Fruit.ID: Int] {
    try sessions.withSession { session throws(StockStorageError) in try session.initialLevels() }
  }

  /// The server process of the storage's connection, for tests that end it.
  package var backendPID: Int32 {
    (try? sessions.withSession { session throws(StockStorageError) in
      session.connection.backendPID
    }) ?? 0
  }

  /// Called after each `COMMIT` is sent and before its answer is read, for tests
  /// that cut the connection there.
  package func afterCommitSent(_ hook: (@Sendable () -> Void)?) {
    sessions.afterCommitSent(hook)
  }
}

// MARK: - Failures

extension PostgresError {
  /// The storage failure of this error, for the given purpose.
  ///
  /// A lock timeout says that another session holds `subject`; a statement timeout,
  /// that one may.
  ///
  /// - Parameters:
  ///   - purpose: What the storage was doing.
  ///   - subject: What the statement waited for, if it waited for a lock.
  func failure(
    _ purpose: String, waitingFor subject: String = "a lock on the store's tables"
  ) -> StorageFailure {
    let message =
      switch code {
      case Self.lockNotAvailable: "another session holds \(subject) (\(self.message))"
      case Self.queryCanceled:
        "\(self.message): another session may hold \(subject), or the server is overloaded"
      default: self.message
      }
    return StorageFailure(code: code, message: message, purpose: purpose)
  }
}
