public import FoundationEssentials
public import JuiceMakerCatalog

/// Where a `FruitStore` keeps its stock levels and its journal: in memory, in an
/// SQLite file, or in a database server.
///
/// A storage holds one level per fruit, in the order of `fruits`, and a journal of
/// every operation with its outcome. It decides nothing: `FruitStore` runs every
/// operation as one call to `transact(_:touching:_:)`, in which the storage locks and
/// reads the touched levels and any journal entry of the request id, hands them to
/// the store's rules, and commits what the rules returned. So the same `JuiceMaker`
/// code and the same guarantees hold over any storage, and a new storage is a few
/// hundred lines of I/O.
///
/// `JuiceMakerStorageTesting`'s conformance suite checks a storage against this
/// contract.
public protocol StockStorage: Sendable {
  /// The fruits the storage holds levels for, in level order.
  var fruits: [Fruit.ID] { get }

  /// The store's name for messages: a file path, or a server address with any
  /// password left out.
  var location: String { get }

  /// Reads every level.
  ///
  /// - Returns: One level per fruit, in the order of `fruits`.
  /// - Throws: `StockStorageError` when the storage cannot be read.
  func levels() throws(StockStorageError) -> [Int]

  /// Runs one transaction over the levels at `touching`.
  ///
  /// The storage locks the touched levels against every other transaction (in this
  /// process and any other sharing the storage), reads them and the journal entry of
  /// `id`, if any, and calls `decide`. When `decide` returns a commit, the storage
  /// writes its changed levels and one journal entry for it, all or nothing; when it
  /// returns `nil`, nothing is written.
  ///
  /// - Parameters:
  ///   - id: The request id to look up in the journal.
  ///   - touching: The level indices to lock and read, ascending; a storage may lock
  ///     only those rows, in that order.
  ///   - decide: Given what the storage read, returns what to commit. It must not
  ///     block or call back into the storage. A storage that retries a transaction
  ///     (after a deadlock or a lost connection) calls it again; the last call's
  ///     decision is the one committed.
  /// - Returns: The journal entry written, or `nil` when `decide` returned `nil`.
  /// - Throws: `StockStorageError` when the transaction could not be kept; then no
  ///   level changed and nothing was journaled (`.outcomeUnknown` when the storage
  ///   cannot tell: run the same operation again with the same id, and the replay
  ///   rule returns the first outcome if it was kept).
  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) throws(StockStorageError) -> JournalEntry?

  /// The journal, newest entry first, filtered by `query`.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read or an entry is
  ///   damaged.
  func journal(_ query: JournalQuery) throws(StockStorageError) -> [JournalEntry]

  /// Waits at most `timeout` until the store may have changed, returning early on a
  /// change by any process; it may also return early without one.
  ///
  /// - Throws: `StockStorageError` when the storage cannot be watched.
  func waitForChanges(timeout: Duration) throws(StockStorageError)

  /// The minimum and par levels this store set over its packs' (`stock limits`): for
  /// each fruit, those of its newest `limits` journal entry.
  ///
  /// The default implementation reads the whole journal; a storage with an index on its
  /// `limits` entries answers from it.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read.
  func limits() throws(StockStorageError) -> [Fruit.ID: StockLimits]

  /// Counts made and refused, takings and fruit used, grouped as `query` says.
  ///
  /// The default implementation reads the whole journal and counts it with
  /// `StockReport`'s rule; an SQL storage counts the same with `GROUP BY`, without
  /// reading every entry into memory.
  ///
  /// - Returns: The rows, in key order.
  /// - Throws: `StockStorageError` when the journal cannot be read.
  func report(_ query: ReportQuery) throws(StockStorageError) -> [ReportRow]

  /// How many journal entries pass `query`'s filters, whatever its limit.
  ///
  /// The default implementation reads them; an SQL storage counts them.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read.
  func journalCount(_ query: JournalQuery) throws(StockStorageError) -> Int
}

// MARK: - Default implementations

extension StockStorage {
  public func limits() throws(StockStorageError) -> [Fruit.ID: StockLimits] {
    var limits: [Fruit.ID: StockLimits] = [:]
    // Newest first: the first entry of each fruit wins.
    for entry in try journal(JournalQuery()) {
      if case .limits(let fruit, let set) = entry.operation.action, entry.outcome == .done,
        limits[fruit] == nil
      {
        limits[fruit] = set
      }
    }
    return limits
  }

  public func report(_ query: ReportQuery) throws(StockStorageError) -> [ReportRow] {
    StockReport.rows(
      try journal(JournalQuery(editor: query.editor, since: query.since, until: query.until)),
      query)
  }

  public func journalCount(_ query: JournalQuery) throws(StockStorageError) -> Int {
    var all = query
    all.limit = nil
    return try journal(all).count
  }
}

/// What a storage read in a transaction: the touched levels, and the journal entry of
/// the request id.
public struct StockTransaction: Sendable {
  /// The touched levels as they are now.
  public let levels: StockLevels
  /// The entry journaled under the request id, if it was used before.
  public let journaled: JournalEntry?

  /// Creates what a transaction read.
  public init(levels: StockLevels, journaled: JournalEntry?) {
    self.levels = levels
    self.journaled = journaled
  }
}

/// What a transaction commits: one operation, its outcome, and each level it changed.
public struct StockCommit: Sendable {
  /// One changed level, with its index.
  public struct Change: Hashable, Sendable {
    /// The level index.
    public let index: Int
    /// The fruit, before and after.
    public let level: StockChange.Level
  }

  /// The operation to journal.
  public let operation: StockOperation
  /// How it ended.
  public let outcome: StockOutcome
  /// The changed levels in index order, none negative; empty unless `outcome` is
  /// `.done`.
  public let changes: [Change]

  /// The commit of an operation whose body left `after` from `before`.
  init(
    operation: StockOperation, outcome: StockOutcome, before: StockLevels, after: StockLevels,
    fruits: [Fruit.ID]
  ) {
    var changes: [Change] = []
    if outcome == .done {
      for index in after.touching where after.values[index] != before.values[index] {
        changes.append(
          Change(
            index: index,
            level: StockChange.Level(
              fruit: fruits[index], before: before.values[index], after: after.values[index])))
      }
    }
    self.operation = operation
    self.outcome = outcome
    self.changes = changes
  }

  /// The journal entry of this commit.
  ///
  /// - Parameters:
  ///   - sequence: The entry's number in the storage.
  ///   - date: When the storage kept it.
  public func entry(sequence: Int64, date: Date) -> JournalEntry {
    JournalEntry(
      sequence: sequence, date: date, operation: operation, outcome: outcome,
      changes: changes.map(\.level))
  }
}

// MARK: - Operations

extension StockStorage {
  /// Runs one operation in one transaction, with the ledger's replay rule, and
  /// journals it.
  ///
  /// If an entry with `operation.id` is journaled already, `body` does not run: the
  /// same operation gets that entry back (`.replayed`), and another operation gets it
  /// as `.idReused`, with nothing done. Otherwise `body` changes the touched levels
  /// and returns the outcome, and the changed levels are kept together with one
  /// journal entry. A `.refused` or `.conflict` outcome changes no level, whatever
  /// `body` left, but is journaled too.
  ///
  /// - Parameters:
  ///   - operation: The operation, journaled with its id.
  ///   - touching: The level indices `body` may read or change, ascending.
  ///   - body: Changes the levels and returns the outcome; it must not block or call
  ///     back into the storage, and may run more than once when the storage retries.
  /// - Returns: The journal entry, and how it came about.
  /// - Throws: `StockStorageError` when the operation could not be kept, including
  ///   `.invalid` when `body` leaves a level below zero; then no level changed and
  ///   nothing was journaled.
  public func perform(
    _ operation: StockOperation, touching: [Int], _ body: (inout StockLevels) -> StockOutcome
  ) throws(StockStorageError) -> StockReceipt {
    var settled: StockReceipt?
    var negative: StockChange.Level?
    let fruits = self.fruits
    let entry = try transact(operation.id, touching: touching) { transaction in
      negative = nil
      if let journaled = transaction.journaled {
        switch StockLedger.replay(journaled, for: operation) {
        case .replay(let entry): settled = StockReceipt(entry: entry, status: .replayed)
        case .reused(let entry): settled = StockReceipt(entry: entry, status: .idReused)
        }
        return nil
      }
      settled = nil
      var after = transaction.levels
      let outcome = body(&after)
      let commit = StockCommit(
        operation: operation, outcome: outcome, before: transaction.levels, after: after,
        fruits: fruits)
      negative = commit.changes.first { $0.level.after < 0 }?.level
      return negative == nil ? commit : nil
    }
    if let entry { return StockReceipt(entry: entry, status: .performed) }
    if let settled { return settled }
    let message =
      negative.map {
        "an operation would leave \($0.fruit) at \($0.after); stock never goes below zero"
      } ?? "the storage committed nothing and found no journal entry"
    throw .invalid(
      store: location,
      cause: StorageFailure(code: "", message: message, purpose: "performing an operation"))
  }

  /// The journal entry of a request id, if it is journaled: the exactly-once look-up
  /// after a lost reply.
  ///
  /// - Throws: `StockStorageError` when the journal cannot be read.
  public func entry(for id: RequestID) throws(StockStorageError) -> JournalEntry? {
    try journal(JournalQuery(request: id, limit: 1)).first
  }
}
