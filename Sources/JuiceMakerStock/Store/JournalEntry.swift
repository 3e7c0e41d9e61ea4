public import FoundationEssentials

/// One entry of a storage's journal: one operation, whether it changed the stock or
/// was refused.
///
/// Every operation is journaled in the same transaction as its level changes, so for
/// every fruit the current level equals its level before the first entry plus the
/// changes of every entry since.
public struct JournalEntry: Hashable, Sendable {
  /// The entry's number in its storage; later entries have larger numbers.
  public let sequence: Int64
  /// When the operation was performed.
  public let date: Date
  /// The operation, with its request id and editor.
  public let operation: StockOperation
  /// How it ended.
  public let outcome: StockOutcome
  /// Each level the operation changed, before and after, in level order; empty when
  /// it changed nothing.
  public let changes: [StockChange.Level]

  /// The operation's request id.
  public var id: RequestID { operation.id }

  /// Creates a journal entry.
  public init(
    sequence: Int64, date: Date, operation: StockOperation, outcome: StockOutcome,
    changes: [StockChange.Level]
  ) {
    self.sequence = sequence
    self.date = date
    self.operation = operation
    self.outcome = outcome
    self.changes = changes
  }
}

/// Which journal entries to read.
///
/// ```swift
/// let recent = try store.journal(JournalQuery(editor: "downtown", limit: 20))
/// ```
public struct JournalQuery: Hashable, Sendable {
  /// Only entries of this editor or shop; `nil` for all.
  public var editor: String?
  /// Only entries made at or after this date; `nil` for all.
  public var since: Date?
  /// Only entries made before this date; `nil` for all.
  public var until: Date?
  /// Only entries with a sequence number larger than this; `nil` for all.
  public var after: Int64?
  /// Only the entry of this request id; `nil` for all.
  public var request: RequestID?
  /// At most this many entries, the newest; `nil` for all.
  public var limit: Int?

  /// Creates a query; every filter is off by default.
  public init(
    editor: String? = nil, since: Date? = nil, until: Date? = nil, after: Int64? = nil,
    request: RequestID? = nil, limit: Int? = nil
  ) {
    self.editor = editor
    self.since = since
    self.until = until
    self.after = after
    self.request = request
    self.limit = limit
  }

  /// Whether an entry passes the filters (not the limit).
  public func matches(_ entry: JournalEntry) -> Bool {
    (editor.map { $0 == entry.operation.editor } ?? true)
      && (since.map { entry.date >= $0 } ?? true)
      && (until.map { entry.date < $0 } ?? true)
      && (after.map { entry.sequence > $0 } ?? true)
      && (request.map { entry.id == $0 } ?? true)
  }
}

/// What an operation got from its storage: its journal entry, and how it came about.
public struct StockReceipt: Hashable, Sendable {
  /// How the entry came about.
  public enum Status: Hashable, Sendable {
    /// The operation ran now, and the entry is its own.
    case performed
    /// The same operation was journaled earlier under the same request id: the entry
    /// is the first one's, and nothing ran again.
    case replayed
    /// The request id was first used for another operation: the entry is that one's,
    /// and nothing ran.
    case idReused
  }

  /// The entry journaled for the operation, or for the first use of its id.
  public let entry: JournalEntry
  /// How the entry came about.
  public let status: Status

  /// Whether the entry was journaled earlier, for the same operation with the same
  /// request id: the operation did not run again.
  public var replayed: Bool { status == .replayed }

  /// Creates a receipt.
  public init(entry: JournalEntry, status: Status) {
    self.entry = entry
    self.status = status
  }
}
