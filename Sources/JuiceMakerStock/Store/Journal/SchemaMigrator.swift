/// The one migration runner of the persistent storages: which recorded schema steps a
/// store still needs, in order.
///
/// A storage keeps its steps as a list numbered 1, 2, 3, …; a store records the last
/// step applied. The migrator decides what to run, and the storage runs each step and
/// records it in the same transaction, under its own lock, as GRDB's
/// `DatabaseMigrator` decides the order of steps once for every database.
package struct SchemaMigrator: Sendable {
  /// One step from a schema version to the next.
  package struct Migration: Sendable {
    /// The version the step leads to.
    package let version: Int
    /// What the step does, as the store records it.
    package let name: String
    /// The statements of the step.
    package let sql: String

    package init(version: Int, name: String, sql: String) {
      self.version = version
      self.name = name
      self.sql = sql
    }
  }

  /// A store whose schema is newer than the steps this version knows.
  package struct NewerSchema: Error, Hashable, Sendable {
    /// The store's version.
    package let version: Int
  }

  /// Every step, in order.
  package let migrations: [Migration]

  /// Creates a migrator over the steps.
  ///
  /// - Precondition: The steps are numbered 1, 2, 3, … in order.
  package init(_ migrations: [Migration]) {
    precondition(
      migrations.map(\.version) == Array(1..<migrations.count + 1),
      "migration steps are numbered 1, 2, 3, … in order")
    self.migrations = migrations
  }

  /// The version a store has after every step.
  package var version: Int { migrations.last?.version ?? 0 }

  /// Runs the steps a store at `version` still needs, in order.
  ///
  /// - Parameters:
  ///   - version: The store's version; 0 for a new store.
  ///   - apply: Runs one step and records it.
  /// - Throws: `NewerSchema` (wrapped by `newer`) when the store is newer than the last
  ///   step, before anything runs; what `apply` throws, after which no further step runs.
  package func migrate<Failure: Error>(
    from version: Int, newer: (NewerSchema) -> Failure,
    _ apply: (Migration) throws(Failure) -> Void
  ) throws(Failure) {
    guard version <= self.version else { throw newer(NewerSchema(version: version)) }
    for migration in migrations where migration.version > version {
      try apply(migration)
    }
  }
}
