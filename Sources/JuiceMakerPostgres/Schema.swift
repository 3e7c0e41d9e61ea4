import JuiceMakerKit

/// The store's tables in a PostgreSQL database, created and upgraded by recorded
/// migrations.
///
/// A store lives in one schema of a database (the first schema of the connection's
/// `search_path`, usually `public`), beside nothing else:
///
/// ```sql
/// CREATE TABLE juice_maker_meta (key text PRIMARY KEY, value text NOT NULL);
///   -- ('application', 'juice-maker'), ('schema_version', '1')
/// CREATE TABLE juice_maker_migrations (version integer PRIMARY KEY,
///   name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
/// CREATE TABLE stock (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
///   fruit text NOT NULL UNIQUE, level bigint NOT NULL CHECK (level >= 0),
///   initial bigint NOT NULL CHECK (initial >= 0));
/// CREATE TABLE journal (sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
///   request_id text NOT NULL UNIQUE, time timestamptz NOT NULL DEFAULT now(),
///   editor text NOT NULL, action text NOT NULL, subject text NOT NULL,
///   count bigint NOT NULL, expected bigint, outcome text NOT NULL,
///   actual bigint, shortages jsonb, changes jsonb NOT NULL,
///   price bigint, currency text, used bigint NOT NULL DEFAULT 0, par bigint);
///   -- shortages: [["kiwi", 3, 1], …] (fruit, needed, available)
///   -- changes: [["kiwi", 10, 7], …] (fruit, level before, level after)
///   -- price, currency: an order's price of one juice (smallest unit) and its code
///   -- used: fruit a made order withdrew; par: a limits entry's par (count: its minimum)
/// CREATE TABLE menu_file (name text PRIMARY KEY, contents bytea NOT NULL,
///   version bigint NOT NULL);
///   -- a file of the menu layer, and the publication that wrote it
/// CREATE TABLE menu_publication (version bigint PRIMARY KEY,
///   time timestamptz NOT NULL DEFAULT now(), editor text NOT NULL,
///   published text NOT NULL, retired text NOT NULL);
///   -- the layer's version after each publication; the names it published and retired,
///   -- one a line, in name order
/// ```
///
/// The journal's columns are the one journal model (`JournalRow`), the same as an
/// SQLite store's.
///
/// For every fruit, `level = initial + Σ (after − before)` over the journal:
///
/// ```sql
/// SELECT s.fruit, s.level, s.initial + coalesce(sum((c->>2)::bigint - (c->>1)::bigint), 0)
/// FROM stock s LEFT JOIN (journal j CROSS JOIN jsonb_array_elements(j.changes) c)
///   ON c->>0 = s.fruit GROUP BY s.fruit, s.level, s.initial;
/// ```
enum Schema {
  /// The `application` value of `juice_maker_meta`.
  static let application = "juice-maker"
  /// The advisory lock key held while the schema is created or upgraded: "JMKR".
  static let lockKey = 0x4A4D_4B52
  /// The purpose of waiting for the schema lock, which `lock_timeout` bounds.
  static let lockPurpose = "waiting for the schema lock"

  /// Every step, in order; a new database runs them all.
  static let migrator = SchemaMigrator([
    SchemaMigrator.Migration(
      version: 1, name: "create stock and journal",
      sql: """
        CREATE TABLE stock (
          id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          fruit text NOT NULL UNIQUE,
          level bigint NOT NULL CHECK (level >= 0),
          initial bigint NOT NULL CHECK (initial >= 0)
        );
        CREATE TABLE journal (
          sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          request_id text NOT NULL UNIQUE,
          time timestamptz NOT NULL DEFAULT now(),
          editor text NOT NULL,
          action text NOT NULL CHECK (action IN ('order', 'add', 'remove', 'set')),
          subject text NOT NULL,
          count bigint NOT NULL,
          expected bigint,
          outcome text NOT NULL CHECK (outcome IN ('done', 'refused', 'conflict')),
          detail jsonb NOT NULL,
          changes jsonb NOT NULL
        );
        CREATE INDEX journal_editor ON journal (editor, sequence);
        CREATE INDEX journal_time ON journal (time);
        """),
    SchemaMigrator.Migration(
      version: 2, name: "the one journal model: actual and shortages in columns of their own",
      sql: """
        ALTER TABLE journal ADD COLUMN actual bigint, ADD COLUMN shortages jsonb;
        UPDATE journal SET actual = (detail ->> 'actual')::bigint WHERE outcome = 'conflict';
        UPDATE journal SET shortages = detail -> 'shortages' WHERE outcome = 'refused';
        ALTER TABLE journal DROP COLUMN detail;
        ALTER TABLE journal
          ADD CONSTRAINT journal_actual CHECK ((actual IS NOT NULL) = (outcome = 'conflict')),
          ADD CONSTRAINT journal_shortages CHECK ((shortages IS NOT NULL) = (outcome = 'refused'));
        """),
    SchemaMigrator.Migration(
      version: 3, name: "prices, fruit used and stock limits in the journal",
      sql: """
        ALTER TABLE journal ADD COLUMN price bigint, ADD COLUMN currency text,
          ADD COLUMN used bigint NOT NULL DEFAULT 0, ADD COLUMN par bigint;
        UPDATE journal SET used = coalesce(
          (SELECT sum((c ->> 1)::bigint - (c ->> 2)::bigint)
           FROM jsonb_array_elements(journal.changes) c), 0)
        WHERE action = 'order' AND outcome = 'done';
        ALTER TABLE journal DROP CONSTRAINT IF EXISTS journal_action_check,
          ADD CONSTRAINT journal_action
            CHECK (action IN ('order', 'add', 'remove', 'set', 'limits')),
          ADD CONSTRAINT journal_price
            CHECK (price IS NULL OR (action = 'order' AND price >= 0)),
          ADD CONSTRAINT journal_currency CHECK ((currency IS NULL) = (price IS NULL)),
          ADD CONSTRAINT journal_par
            CHECK ((par IS NOT NULL) = (action = 'limits') AND (par IS NULL OR par >= count));
        CREATE INDEX journal_limits ON journal (subject, sequence) WHERE action = 'limits';
        CREATE INDEX journal_report ON journal (action, time)
          INCLUDE (currency, outcome, count, price, used);
        """),
    SchemaMigrator.Migration(
      version: 4, name: "the menu layer: published files and their publications",
      sql: """
        CREATE TABLE menu_file (
          name text PRIMARY KEY CHECK (name <> '' AND strpos(name, chr(10)) = 0),
          contents bytea NOT NULL,
          version bigint NOT NULL CHECK (version >= 1)
        );
        CREATE TABLE menu_publication (
          version bigint PRIMARY KEY CHECK (version >= 1),
          time timestamptz NOT NULL DEFAULT now(),
          editor text NOT NULL,
          published text NOT NULL,
          retired text NOT NULL
        );
        """),
  ])

  /// The schema version this version of the package writes and reads.
  static var version: Int { migrator.version }

  /// What the connection's schema holds.
  enum State: Equatable {
    /// Nothing: a new store.
    case empty
    /// A store at the given schema version.
    case store(version: Int)
    /// A `juice_maker_meta` table naming another application.
    case foreign(application: String)
    /// Tables of another application and no `juice_maker_meta` table.
    case unmarked(tables: [String])
  }

  /// Why a database cannot hold the store.
  enum Problem: Error, Equatable {
    /// The database answered with an error.
    case database(PostgresError, purpose: String)
    /// The schema belongs to another application or holds other tables.
    case foreign(String)
    /// The store's schema is newer than this version reads.
    case newerVersion(Int)
    /// The schema holds no store, and it was not to be created.
    case missing
    /// The schema holds a store of this version already, and a new one was to be created.
    case alreadyExists(version: Int)
  }

  /// Makes sure the connection's schema holds a store at the current version,
  /// creating it when `creating` allows, and upgrading it when needed.
  ///
  /// Creation and upgrades run in one transaction under an advisory lock, so many
  /// shops starting at once against a new database create the tables once; a
  /// database that is not empty and not a store, or a store of a newer version, is
  /// left untouched, and so is an empty one under `.never` and a store under
  /// `.always`.
  ///
  /// - Returns: Whether this call created the store's tables.
  /// - Throws: `Problem.missing` for an empty schema under `.never`, `.alreadyExists`
  ///   for a store under `.always`; `.foreign`, `.newerVersion`, or `.database` when a
  ///   statement fails.
  static func prepare(_ connection: Connection, creating: StoreCreation) throws(Problem) -> Bool {
    let first = try state(connection)
    try refuse(first, creating: creating)
    if first == .store(version: version) { return false }
    try run("creating the schema") { () throws(PostgresError) in
      try connection.execute("BEGIN")
    }
    do throws(Problem) {
      try run(lockPurpose) { () throws(PostgresError) in
        try connection.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
        // Once the lock is held, the steps run as long as they need: a migration cut
        // off by `statement_timeout` would fail every start alike.
        try connection.execute("SET LOCAL statement_timeout = 0")
      }
      // Another shop may have created or upgraded the schema meanwhile.
      let current = try state(connection)
      try refuse(current, creating: creating)
      let from: Int
      switch current {
      case .empty:
        try run("creating the schema") { () throws(PostgresError) in
          try connection.execute(
            """
            CREATE TABLE juice_maker_meta (key text PRIMARY KEY, value text NOT NULL);
            INSERT INTO juice_maker_meta VALUES
              ('application', '\(application)'), ('schema_version', '0');
            CREATE TABLE juice_maker_migrations (
              version integer PRIMARY KEY,
              name text NOT NULL,
              applied_at timestamptz NOT NULL DEFAULT now()
            );
            """)
        }
        from = 0
      case .store(let found):
        from = found
      case .foreign(let application):
        throw .foreign("its juice_maker_meta table names the application \(application)")
      case .unmarked(let tables):
        throw .foreign("it holds other tables (\(tables.prefix(5).joined(separator: ", ")))")
      }
      try migrator.migrate(from: from, newer: { Problem.newerVersion($0.version) }) {
        migration throws(Problem) in
        try run("migrating the schema to version \(migration.version)") {
          () throws(PostgresError) in
          try connection.execute(migration.sql)
          try connection.execute(
            "INSERT INTO juice_maker_migrations (version, name) VALUES ($1, $2)",
            [String(migration.version), migration.name])
          try connection.execute(
            "UPDATE juice_maker_meta SET value = $1 WHERE key = 'schema_version'",
            [String(migration.version)])
        }
      }
      try run("committing the schema") { () throws(PostgresError) in
        try connection.execute("COMMIT")
      }
      return current == .empty
    } catch {
      _ = try? connection.execute("ROLLBACK")
      throw error
    }
  }

  /// Throws when `creating` rules out opening a schema in `state`: an empty one under
  /// `.never` holds no store, a store under `.always` is one already.
  private static func refuse(_ state: State, creating: StoreCreation) throws(Problem) {
    switch (state, creating) {
    case (.empty, .never): throw .missing
    case (.store(let version), .always): throw .alreadyExists(version: version)
    default: return
    }
  }

  /// Reads what the connection's schema holds.
  static func state(_ connection: Connection) throws(Problem) -> State {
    try run("reading the schema") { () throws(PostgresError) -> State in
      let tables = try connection.execute(
        """
        SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
        ORDER BY c.relname
        """)
      let names = (0..<tables.count).compactMap { tables.text($0, 0) }
      guard names.contains("juice_maker_meta") else {
        return names.isEmpty ? .empty : .unmarked(tables: names)
      }
      let meta = try connection.execute("SELECT key, value FROM juice_maker_meta")
      var values: [String: String] = [:]
      for row in 0..<meta.count {
        if let key = meta.text(row, 0) { values[key] = meta.text(row, 1) }
      }
      guard values["application"] == application else {
        return .foreign(application: values["application"] ?? "(none)")
      }
      guard let version = values["schema_version"].flatMap({ Int($0) }) else {
        return .foreign(application: application + " without a schema version")
      }
      return .store(version: version)
    }
  }

  @discardableResult
  private static func run<Result>(
    _ purpose: String, _ body: () throws(PostgresError) -> Result
  ) throws(Problem) -> Result {
    do {
      return try body()
    } catch {
      throw .database(error, purpose: purpose)
    }
  }
}
