import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit

/// The store's schema, built by an ordered list of recorded migration steps, and how
/// an opened file is checked against it.
///
/// The schema of the latest step holds the one journal model (`JournalRow`), the same
/// columns as a PostgreSQL store:
///
/// ```sql
/// CREATE TABLE stock (
///   id INTEGER PRIMARY KEY,
///   fruit TEXT NOT NULL UNIQUE,
///   level INTEGER NOT NULL CHECK (typeof(level) = 'integer' AND level >= 0),
///   initial INTEGER NOT NULL CHECK (typeof(initial) = 'integer' AND initial >= 0));
/// CREATE TABLE journal (
///   sequence INTEGER PRIMARY KEY,       -- the entry's number
///   request_id TEXT NOT NULL UNIQUE,    -- the idempotency id
///   time REAL NOT NULL,                 -- seconds since 1970
///   editor TEXT NOT NULL,
///   action TEXT NOT NULL,               -- order, add, remove, set, limits
///   subject TEXT NOT NULL,              -- the juice of an order, the fruit of an edit
///   count INTEGER NOT NULL,             -- juices, fruits, or the level set
///   expected INTEGER,                   -- a compare-and-set's expected level
///   outcome TEXT NOT NULL,              -- done, refused, conflict
///   actual INTEGER,                     -- the level a conflict found
///   shortages TEXT,                     -- refused: [["kiwi",3,1]] (fruit, needed, available)
///   changes TEXT NOT NULL,              -- [["kiwi",10,7]] (fruit, before, after)
///   price INTEGER,                      -- an order's price of one juice, smallest unit
///   currency TEXT,                      -- the price's ISO 4217 code
///   used INTEGER NOT NULL DEFAULT 0,    -- fruit a made order withdrew
///   par INTEGER);                       -- limits: the par level (count is the minimum)
/// CREATE TABLE menu_file (
///   name TEXT PRIMARY KEY,              -- such as Seasonal.json
///   contents BLOB NOT NULL,             -- the bytes as published
///   version INTEGER NOT NULL);          -- the publication that wrote it
/// CREATE TABLE menu_publication (
///   version INTEGER PRIMARY KEY,        -- 1, 2, 3, …: the layer's version after it
///   time REAL NOT NULL,                 -- seconds since 1970
///   editor TEXT NOT NULL,
///   published TEXT NOT NULL,            -- the names added or replaced, by line
///   retired TEXT NOT NULL);             -- the names removed, by line
/// CREATE TABLE migration (version INTEGER PRIMARY KEY, name TEXT NOT NULL, time REAL);
/// ```
///
/// with `CHECK` constraints tying the columns to the action and outcome. The file is
/// marked with `PRAGMA application_id`, and `PRAGMA user_version` is the last step
/// applied; each step is recorded in `migration` in the transaction that applies it.
/// For every stock row, `level = initial + Σ (after − before)` over the journal, and an
/// audit can check it in SQL:
///
/// ```sql
/// SELECT fruit, level, initial + coalesce((SELECT sum(value ->> 2 - value ->> 1)
///   FROM journal, json_each(journal.changes) WHERE value ->> 0 = fruit), 0) FROM stock;
/// ```
enum StoreSchema {
  /// `PRAGMA application_id` of every store: "JMKR" in ASCII.
  static let applicationID: Int64 = 0x4A4D_4B52
  /// The page size of a new store, in bytes.
  ///
  /// An operation writes few pages to the log (its stock page and the journal's
  /// last pages), so small pages mean less to write per commit.
  static let pageSize = 1024
  /// Pages in the log before a commit checkpoints it into the file: 4 MiB of 1 KiB
  /// pages, SQLite's default log size.
  static let checkpointPages = 4096

  /// Every step, in order; the `user_version` a store has after a step is its
  /// version.
  static let migrator = SchemaMigrator([
    SchemaMigrator.Migration(
      version: 1, name: "create the stock and journal tables",
      sql: """
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
        """),
    SchemaMigrator.Migration(
      version: 2,
      name: "journal request ids, typed subjects, levels before and after, shortages",
      sql: """
        CREATE TABLE journal_typed (
          id INTEGER PRIMARY KEY,
          request TEXT NOT NULL UNIQUE CHECK (length(request) BETWEEN 1 AND 128),
          time REAL NOT NULL,
          editor TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('order', 'add', 'remove', 'set')),
          juice TEXT CHECK ((juice IS NOT NULL) = (kind = 'order')),
          fruit TEXT CHECK ((fruit IS NOT NULL) = (kind <> 'order')),
          count INTEGER NOT NULL CHECK (typeof(count) = 'integer' AND count >= 0),
          expected INTEGER CHECK (expected IS NULL OR (kind = 'set' AND expected >= 0)),
          outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
          actual INTEGER CHECK ((actual IS NOT NULL) = (outcome = 'conflict')),
          shortages TEXT CHECK ((shortages IS NOT NULL) = (outcome = 'refused')),
          changes TEXT NOT NULL,
          levels TEXT NOT NULL
        );
        INSERT INTO journal_typed
          (id, request, time, editor, kind, juice, fruit, count, outcome, shortages, changes,
           levels)
        SELECT id, 'journal-' || id, time, shop, kind,
          CASE WHEN kind = 'order' THEN subject END, CASE WHEN kind <> 'order' THEN subject END,
          count, outcome, CASE WHEN outcome = 'refused' THEN '[]' END, changes, '{}'
        FROM journal;
        WITH delta AS (
          SELECT journal.id, each.key AS fruit, each.value AS delta
          FROM journal, json_each(journal.changes) AS each),
        level AS (
          SELECT delta.id, delta.fruit, delta.delta,
            coalesce((SELECT initial FROM stock WHERE stock.fruit = delta.fruit), 0)
              + sum(delta.delta) OVER (PARTITION BY delta.fruit ORDER BY delta.id) AS after
          FROM delta),
        entry AS (
          SELECT id, json_group_object(fruit, json_array(after - delta, after)) AS levels
          FROM level GROUP BY id)
        UPDATE journal_typed SET levels = entry.levels FROM entry
        WHERE journal_typed.id = entry.id;
        DROP TABLE journal;
        ALTER TABLE journal_typed RENAME TO journal;
        """),
    SchemaMigrator.Migration(
      version: 3, name: "the one journal model: the columns of every store",
      sql: """
        CREATE TABLE journal_model (
          sequence INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL UNIQUE CHECK (length(request_id) BETWEEN 1 AND 128),
          time REAL NOT NULL,
          editor TEXT NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('order', 'add', 'remove', 'set')),
          subject TEXT NOT NULL,
          count INTEGER NOT NULL CHECK (typeof(count) = 'integer' AND count >= 0),
          expected INTEGER CHECK (expected IS NULL OR (action = 'set' AND expected >= 0)),
          outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
          actual INTEGER CHECK ((actual IS NOT NULL) = (outcome = 'conflict')),
          shortages TEXT CHECK ((shortages IS NOT NULL) = (outcome = 'refused')),
          changes TEXT NOT NULL
        );
        INSERT INTO journal_model
          (sequence, request_id, time, editor, action, subject, count, expected, outcome,
           actual, shortages, changes)
        SELECT id, request, time, editor, kind, coalesce(juice, fruit), count, expected, outcome,
          actual,
          CASE WHEN shortages IS NOT NULL THEN (
            SELECT json_group_array(json_array(
              value ->> 'fruit', value ->> 'needed', value ->> 'available'))
            FROM json_each(journal.shortages)) END,
          (SELECT json_group_array(json_array(key, value ->> 0, value ->> 1))
           FROM json_each(journal.levels))
        FROM journal;
        DROP TABLE journal;
        ALTER TABLE journal_model RENAME TO journal;
        CREATE INDEX journal_editor ON journal (editor, sequence);
        """),
    SchemaMigrator.Migration(
      version: 4, name: "prices, fruit used and stock limits in the journal",
      sql: """
        CREATE TABLE journal_chain (
          sequence INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL UNIQUE CHECK (length(request_id) BETWEEN 1 AND 128),
          time REAL NOT NULL,
          editor TEXT NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('order', 'add', 'remove', 'set', 'limits')),
          subject TEXT NOT NULL,
          count INTEGER NOT NULL CHECK (typeof(count) = 'integer' AND count >= 0),
          expected INTEGER CHECK (expected IS NULL OR (action = 'set' AND expected >= 0)),
          outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
          actual INTEGER CHECK ((actual IS NOT NULL) = (outcome = 'conflict')),
          shortages TEXT CHECK ((shortages IS NOT NULL) = (outcome = 'refused')),
          changes TEXT NOT NULL,
          price INTEGER CHECK (price IS NULL OR (action = 'order' AND typeof(price) = 'integer'
            AND price >= 0)),
          currency TEXT CHECK ((currency IS NULL) = (price IS NULL)),
          used INTEGER NOT NULL DEFAULT 0 CHECK (typeof(used) = 'integer'),
          par INTEGER CHECK ((par IS NOT NULL) = (action = 'limits') AND (par IS NULL OR par >= count))
        );
        INSERT INTO journal_chain
          (sequence, request_id, time, editor, action, subject, count, expected, outcome,
           actual, shortages, changes, used)
        SELECT sequence, request_id, time, editor, action, subject, count, expected, outcome,
          actual, shortages, changes,
          CASE WHEN action = 'order' AND outcome = 'done' THEN
            (SELECT coalesce(sum(value ->> 1 - value ->> 2), 0) FROM json_each(journal.changes))
          ELSE 0 END
        FROM journal;
        DROP TABLE journal;
        ALTER TABLE journal_chain RENAME TO journal;
        CREATE INDEX journal_editor ON journal (editor, sequence);
        CREATE INDEX journal_limits ON journal (subject, sequence) WHERE action = 'limits';
        CREATE INDEX journal_quarter ON journal
          (action, CAST(time AS INTEGER) / 900, currency, outcome, count, price, used, time);
        """),
    SchemaMigrator.Migration(
      version: 5, name: "the menu layer: published files and their publications",
      sql: """
        CREATE TABLE menu_file (
          name TEXT PRIMARY KEY CHECK (length(name) > 0 AND instr(name, char(10)) = 0),
          contents BLOB NOT NULL CHECK (typeof(contents) = 'blob'),
          version INTEGER NOT NULL CHECK (typeof(version) = 'integer' AND version >= 1)
        );
        CREATE TABLE menu_publication (
          version INTEGER PRIMARY KEY CHECK (version >= 1),
          time REAL NOT NULL,
          editor TEXT NOT NULL,
          published TEXT NOT NULL,
          retired TEXT NOT NULL
        );
        """),
  ])

  /// The schema version this version writes and reads: the last step's.
  static var version: Int64 { Int64(migrator.version) }

  /// What an opened file holds.
  enum State: Equatable {
    /// Nothing yet: a new store.
    case empty
    /// A store at this schema version (`version`) or an older one that migrates.
    case store(version: Int64)
    /// A store of a schema version newer than this version knows.
    case newer(Int64)
    /// A database of another application.
    case foreign(applicationID: Int64)
    /// An unmarked database that already holds tables.
    case unmarked
  }

  /// Makes sure the opened file is a store of the current schema in WAL mode,
  /// creating the schema in an empty file when `creating` allows and migrating an
  /// older store.
  ///
  /// Nothing is written to a file that is not an empty file or a store, to an empty
  /// file under `.never`, or to a store under `.always`.
  ///
  /// - Returns: Whether this call created the schema.
  /// - Throws: `StockStorageError.missing` for an empty file under `.never`,
  ///   `.alreadyExists` for a store under `.always`; `.invalid` for a file that is not
  ///   a store this version can read; `.unavailable` when it cannot be read or changed.
  static func prepare(_ database: Database, creating: StoreCreation) throws(StockStorageError)
    -> Bool
  {
    // Several processes may open a new file at once. SQLite answers some lock
    // conflicts there at once with SQLITE_BUSY, without waiting (switching the
    // journal mode, for one), so a busy failure is tried again until the busy
    // timeout has passed.
    let deadline = ContinuousClock.now + database.busyTimeout
    while true {
      do {
        return try prepareOnce(database, creating: creating)
      } catch {
        guard case .unavailable = error, ContinuousClock.now < deadline else { throw error }
        Threads.sleep(seconds: 0.005)
      }
    }
  }

  private static let purpose = "checking the store's schema"

  private static func prepareOnce(_ database: Database, creating: StoreCreation)
    throws(StockStorageError) -> Bool
  {
    var state = try snapshotState(of: database)
    try refuse(state, creating: creating, database)
    var created = false
    if state == .empty {
      // Before the first write, which fixes the page size for good.
      try database.execute("PRAGMA page_size = \(pageSize)", purpose: purpose)
      try useWAL(database)
    }
    if state == .empty || state.needsMigration {
      state = try database.transaction { () throws(StockStorageError) -> State in
        // Another process may have created or migrated the schema since the first look.
        let state = try self.state(of: database)
        try refuse(state, creating: creating, database)
        switch state {
        case .empty:
          try migrate(database, from: 0)
          created = true
        case .store(let version) where version < self.version:
          try migrate(database, from: version)
        default: return state
        }
        return .store(version: self.version)
      }
    }
    let context = database.context
    switch state {
    case .store:
      try useWAL(database)
      return created
    case .empty:
      throw context.invalid("the schema could not be created", purpose: purpose)
    case .newer(let version):
      throw context.invalid(
        "it has schema version \(version); this version reads versions up to \(self.version)",
        purpose: purpose)
    case .foreign(let applicationID):
      throw context.invalid(
        "it belongs to another application (application_id \(applicationID))", purpose: purpose)
    case .unmarked:
      throw context.invalid("it holds the tables of another application", purpose: purpose)
    }
  }

  /// Throws when `creating` rules out opening a file in `state`: an empty file under
  /// `.never` holds no store, a store under `.always` is one already.
  private static func refuse(_ state: State, creating: StoreCreation, _ database: Database)
    throws(StockStorageError)
  {
    switch (state, creating) {
    case (.empty, .never):
      throw .missing(
        store: database.path,
        cause: StorageFailure(
          code: "", message: "the file holds no store yet", purpose: "opening the store"))
    case (.store(let version), .always), (.newer(let version), .always):
      throw .alreadyExists(
        store: database.path,
        cause: StorageFailure(
          code: "", message: "it holds a store of schema version \(version)",
          purpose: "creating the store"))
    default:
      return
    }
  }

  /// Applies every step after `version`, recording each; inside a transaction.
  private static func migrate(_ database: Database, from version: Int64)
    throws(StockStorageError)
  {
    let purpose = "migrating the store's schema"
    try database.execute(
      """
      CREATE TABLE IF NOT EXISTS migration (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, time REAL);
      PRAGMA application_id = \(applicationID);
      """, purpose: purpose)
    let record = try database.prepare(
      "INSERT OR IGNORE INTO migration (version, name, time) VALUES (?1, ?2, ?3)",
      purpose: purpose)
    for step in migrator.migrations where Int64(step.version) <= version {
      // Steps applied before steps were recorded: their time is unknown.
      try record.bind(Int64(step.version), at: 1)
      try record.bind(step.name, at: 2)
      try record.bindNull(at: 3)
      try record.run()
    }
    try migrator.migrate(
      from: Int(version),
      newer: { newer in
        database.context.invalid("it has schema version \(newer.version)", purpose: purpose)
      }
    ) { step throws(StockStorageError) in
      try database.execute(step.sql, purpose: "\(purpose): \(step.name)")
      try record.bind(Int64(step.version), at: 1)
      try record.bind(step.name, at: 2)
      try record.bind(Date().timeIntervalSince1970, at: 3)
      try record.run()
    }
    try database.execute("PRAGMA user_version = \(self.version)", purpose: purpose)
  }

  /// The state as one read transaction sees it: a creator's schema and marks are
  /// committed together, so the three reads of `state(of:)` must see one snapshot.
  private static func snapshotState(of database: Database) throws(StockStorageError) -> State {
    try database.execute("BEGIN", purpose: purpose)
    do {
      let state = try self.state(of: database)
      try database.execute("COMMIT", purpose: purpose)
      return state
    } catch {
      try? database.execute("ROLLBACK", purpose: purpose)
      throw error
    }
  }

  private static func state(of database: Database) throws(StockStorageError) -> State {
    let applicationID = try database.integer("PRAGMA application_id", purpose: purpose)
    let version = try database.integer("PRAGMA user_version", purpose: purpose)
    if applicationID == self.applicationID {
      return version > self.version ? .newer(version) : .store(version: version)
    }
    guard applicationID == 0 else { return .foreign(applicationID: applicationID) }
    let objects = try database.integer("SELECT count(*) FROM sqlite_master", purpose: purpose)
    return version == 0 && objects == 0 ? .empty : .unmarked
  }

  /// Switches the file to write-ahead logging, which persists in the file.
  private static func useWAL(_ database: Database) throws(StockStorageError) {
    guard try database.text("PRAGMA journal_mode", purpose: purpose) != "wal" else { return }
    let mode = try database.text("PRAGMA journal_mode = WAL", purpose: purpose)
    guard mode == "wal" else {
      throw .unavailable(
        store: database.path,
        cause: StorageFailure(
          code: "", message: "cannot switch to write-ahead logging (mode \(mode))",
          purpose: purpose))
    }
  }
}

extension StoreSchema.State {
  /// Whether the state is a store of an older schema version.
  var needsMigration: Bool {
    if case .store(let version) = self { return version < StoreSchema.version }
    return false
  }
}
