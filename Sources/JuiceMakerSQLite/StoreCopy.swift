import CSQLite
import FoundationEssentials
import JuiceMakerCatalog
public import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A consistent copy of a store file in a new file, made with SQLite's online backup API:
/// what `backup` writes and `restore` reads back.
///
/// The copy reads the source in one read transaction: in write-ahead-log mode, shops keep
/// ordering meanwhile, and the copy holds every operation committed before it began and
/// none after. It is written to a temporary file beside the destination, checked with
/// `PRAGMA quick_check`, switched out of write-ahead logging (so it is one self-contained
/// file), and only then linked in under its name, which it never overwrites.
enum StoreCopy {
  /// `PRAGMA application_id` of a juice-maker store.
  private static let applicationID = StoreSchema.applicationID

  /// Whether the file at `path` starts as a PostgreSQL store's export does; `false` for a
  /// file that cannot be read.
  private static func isExport(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var first = [UInt8](repeating: 0, count: 32)
    let count = first.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return count > 0 && first[..<count].starts(with: Array(#"["juice-maker-export""#.utf8))
  }

  /// Copies the store at `source` into a new file at `destination`.
  ///
  /// - Parameters:
  ///   - source: A store file.
  ///   - destination: Where the copy goes: a path where there is no file, or an empty
  ///     file.
  ///   - busyTimeout: How long to wait for another process's lock.
  /// - Throws: `StockStorageError.alreadyExists` naming `destination` when a file with
  ///   contents is there (it is left alone); `.missing` or `.invalid` for a source that
  ///   is not a store; `.unavailable` when a file cannot be read or written. Nothing is
  ///   left at `destination` then.
  static func copy(from source: String, to destination: String, busyTimeout: Duration)
    throws(StockStorageError)
  {
    if Self.isExport(source) {
      throw .invalid(
        store: source,
        cause: StorageFailure(
          code: "", message: "it is an export of a PostgreSQL store: restore it into a database",
          purpose: "reading the backup"))
    }
    try StoreFile.prepare(source, creating: .never)
    var status = stat()
    let replacesEmptyFile = stat(destination, &status) == 0
    if replacesEmptyFile, status.st_size > 0 || (status.st_mode & S_IFMT) != S_IFREG {
      throw .alreadyExists(
        store: destination,
        cause: StorageFailure(
          code: "", message: "a file is there already; it is never overwritten",
          purpose: "copying the store"))
    }
    let temporary = destination + ".partial-" + UUID().uuidString.prefix(8)
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }
    try StoreFile.prepare(temporary, creating: .always)
    do {
      let from = try Database(path: source, busyTimeout: busyTimeout)
      let marker = try from.integer("PRAGMA application_id", purpose: "reading the store")
      guard marker == applicationID else {
        throw from.context.invalid(
          "it is not a juice-maker store (application_id \(marker))", purpose: "reading the store")
      }
      let to = try Database(path: temporary, busyTimeout: busyTimeout)
      try to.copy(from: from)
      // One self-contained file: the copy's log is folded in and removed.
      _ = try to.text("PRAGMA journal_mode = DELETE", purpose: "finishing the copy")
      let check = try to.text("PRAGMA quick_check", purpose: "checking the copy")
      guard check == "ok" else {
        throw to.context.invalid("the copy does not check: \(check)", purpose: "checking the copy")
      }
    }
    let linked =
      replacesEmptyFile ? rename(temporary, destination) == 0 : link(temporary, destination) == 0
    guard linked else {
      let reason = String(cString: strerror(errno))
      if errno == EEXIST {
        throw .alreadyExists(
          store: destination,
          cause: StorageFailure(
            code: "", message: "a file appeared there meanwhile; it is never overwritten",
            purpose: "copying the store"))
      }
      throw .unavailable(
        store: destination,
        cause: StorageFailure(
          code: "", message: "cannot name the copy: \(reason)", purpose: "copying the store"))
    }
  }
}

extension Database {
  /// Copies every page of `source`'s main database into this one, in one step: one read
  /// transaction on the source, which other connections keep writing past.
  ///
  /// - Throws: `StockStorageError` with SQLite's reason when the copy fails.
  func copy(from source: Database) throws(StockStorageError) {
    try withHandle { destination throws(StockStorageError) in
      try source.withHandle { from throws(StockStorageError) in
        guard let backup = sqlite3_backup_init(destination, "main", from, "main") else {
          throw failure(sqlite3_errcode(destination), purpose: "starting the copy")
        }
        let deadline = ContinuousClock.now + busyTimeout
        var code = sqlite3_backup_step(backup, -1)
        while code == SQLITE_BUSY || code == SQLITE_LOCKED, ContinuousClock.now < deadline {
          Threads.sleep(seconds: 0.01)
          code = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finished == SQLITE_OK else {
          throw failure(code == SQLITE_DONE ? finished : code, purpose: "copying the store")
        }
      }
    }
  }
}

// MARK: - Backup and restore

extension SQLiteStockStorage {
  /// Writes a consistent snapshot of the store at `path` to a new file, while shops keep
  /// ordering: SQLite's online backup API, in one read transaction.
  ///
  /// The backup is itself a store file (not in write-ahead-log mode), with every level,
  /// journal entry (so every price and limit) and recorded migration.
  ///
  /// - Parameters:
  ///   - path: The store file.
  ///   - file: Where the backup goes; a file there with contents is never overwritten.
  ///   - busyTimeout: How long to wait for another process's lock.
  /// - Throws: `StockStorageError.alreadyExists` naming `file` when it holds something;
  ///   `.missing`, `.invalid` or `.unavailable` as opening the store does.
  public static func backup(
    store path: String, to file: String, busyTimeout: Duration = .seconds(15)
  ) throws(StockStorageError) {
    try StoreCopy.copy(from: path, to: file, busyTimeout: busyTimeout)
  }

  /// Restores a backup into a new store at `path`, then opens it, migrating a backup of
  /// an older schema version.
  ///
  /// - Parameters:
  ///   - file: A backup `backup(store:to:busyTimeout:)` wrote.
  ///   - path: Where the store goes: no file, or an empty one.
  ///   - fruits: The fruits to hold levels for, as for `init(path:fruits:…)`.
  ///   - busyTimeout: How long to wait for another process's lock.
  /// - Returns: The restored store.
  /// - Throws: `StockStorageError.alreadyExists` naming `path` when a store (or any
  ///   file with contents) is there, which is left alone; `.invalid` for a file that is
  ///   not a backup; `.unavailable` when a file cannot be read or written.
  public static func restore(
    backup file: String, to path: String, fruits: [Fruit], busyTimeout: Duration = .seconds(15)
  ) throws(StockStorageError) -> SQLiteStockStorage {
    try StoreCopy.copy(from: file, to: path, busyTimeout: busyTimeout)
    return try SQLiteStockStorage(
      path: path, fruits: fruits, busyTimeout: busyTimeout, creating: .never)
  }
}
