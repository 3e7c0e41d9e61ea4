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

/// A PostgreSQL store as a file: a logical export of its tables, taken in one
/// `REPEATABLE READ` transaction while shops keep ordering, and restored into an empty
/// database.
///
/// The format is JSON Lines, one JSON array per line, written by the server itself:
///
/// ```
/// ["juice-maker-export", 1, 4]                      format, format version, schema version
/// ["stock", "kiwi", 7, 10]                          fruit, level, initial
/// ["journal", 1, "r-1", "1764057600.123456", "downtown", "order", "kiwi-juice", 1,
///  null, "done", null, null, [["kiwi", 10, 7]], 4500, "KRW", 3, null]
/// ["menu_file", "Seasonal.json", "eyJmcnVpdHMiOiBbXX0=", 1]       name, contents, version
/// ["menu_publication", 1, "1764057600.5", "head-office", "Seasonal.json", ""]
/// ```
///
/// A journal line holds the columns of `JournalRow` in its order (`time` as seconds since
/// 1970, as text so no digit is lost; `shortages` and `changes` as JSON), sequences kept.
/// A `menu_file` line holds a file of the menu layer, its contents in base64; a
/// `menu_publication` line, a publication with the names it published and retired as the
/// column keeps them (one a line). An export of schema version 3, before the menu layer,
/// restores with an empty one.
extension PostgresStockStorage {
  /// The first element of the header line.
  static let exportFormat = "juice-maker-export"
  /// The oldest schema version whose exports restore: the first one exports were
  /// written at.
  static let oldestExportVersion = 3
  /// How many journal rows are read, or written, at once.
  private static let batch = 5000

  /// Writes a consistent export of the store at `uri` to a new file.
  ///
  /// - Parameters:
  ///   - uri: The store's connection URI.
  ///   - file: Where the export goes; a file there with contents is never overwritten.
  /// - Throws: `StockStorageError.alreadyExists` naming `file` when it holds something;
  ///   `.missing` when the database holds no store; `.unavailable` when the server fails
  ///   or the file cannot be written.
  public static func export(uri: String, to file: String) throws(StockStorageError) {
    // Opening checks the store, and migrates an older one, as every command does.
    let store = try PostgresStockStorage(uri: uri, fruits: [], creating: .never)
    let location = store.location
    let output = try ExportFile(file)
    do {
      let connection = try Connection(
        uri: store.uri, connectTimeout: store.connectTimeout, timeouts: nil)
      try connection.execute(
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = 0")
      try output.write(
        #"["\#(exportFormat)", 1, \#(Schema.version)]"# + "\n", location: location)
      let stock = try connection.execute(
        "SELECT json_build_array('stock', fruit, level, initial)::text FROM stock ORDER BY id")
      for row in 0..<stock.count {
        try output.write((stock.text(row, 0) ?? "") + "\n", location: location)
      }
      try connection.execute(
        """
        DECLARE entries NO SCROLL CURSOR FOR
        SELECT json_build_array('journal', sequence, request_id, extract(epoch FROM time)::text,
          editor, action, subject, count, expected, outcome, actual, shortages, changes, price,
          currency, used, par)::text
        FROM journal ORDER BY sequence
        """)
      while true {
        let rows = try connection.execute("FETCH \(batch) FROM entries")
        if rows.count == 0 { break }
        var text = ""
        for row in 0..<rows.count { text += (rows.text(row, 0) ?? "") + "\n" }
        try output.write(text, location: location)
      }
      let menu = try connection.execute(
        """
        SELECT json_build_array('menu_file', name, encode(contents, 'base64'), version)::text
        FROM menu_file ORDER BY name COLLATE "C"
        """)
      let publications = try connection.execute(
        """
        SELECT json_build_array('menu_publication', version, extract(epoch FROM time)::text,
          editor, published, retired)::text
        FROM menu_publication ORDER BY version
        """)
      for result in [menu, publications] {
        var text = ""
        for row in 0..<result.count { text += (result.text(row, 0) ?? "") + "\n" }
        try output.write(text, location: location)
      }
      try connection.execute("COMMIT")
    } catch let error as StockStorageError {
      throw error
    } catch let error as PostgresError {
      throw .unavailable(store: location, cause: error.failure("exporting the store"))
    } catch {
      throw .unavailable(
        store: location,
        cause: StorageFailure(code: "", message: "\(error)", purpose: "exporting the store"))
    }
    try output.finish(location: location)
  }

  /// Restores an export into a new store in the empty database at `uri`.
  ///
  /// The store's tables are created empty, then filled in one transaction; when the file
  /// cannot be loaded, the tables are dropped again, leaving the database empty.
  ///
  /// - Parameters:
  ///   - file: An export `export(uri:to:)` wrote.
  ///   - uri: A database holding no store.
  ///   - fruits: The fruits to hold levels for, as for `init(uri:fruits:…)`.
  /// - Returns: The restored store.
  /// - Throws: `StockStorageError.alreadyExists` when the database holds a store, left
  ///   unchanged; `.invalid` for a file that is not an export of this schema version;
  ///   `.unavailable` when the server fails or the file cannot be read.
  public static func restore(from file: String, uri: String, fruits: [Fruit])
    throws(StockStorageError) -> PostgresStockStorage
  {
    let parsed = ConnectionURI(uri)
    let location = parsed.redacted
    func invalid(_ message: String) -> StockStorageError {
      .invalid(
        store: file,
        cause: StorageFailure(code: "", message: message, purpose: "reading the backup"))
    }
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw .unavailable(
        store: file,
        cause: StorageFailure(
          code: "", message: FailureReason.of(error), purpose: "reading the backup"))
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    if text.hasPrefix("SQLite format 3") {
      throw invalid("it is a backup of an SQLite store: restore it into a store file")
    }
    let prefix = #"["\#(exportFormat)",1,"#
    guard let header = lines.first?.replacing(" ", with: ""), header.hasPrefix(prefix),
      header.hasSuffix("]"),
      let version = Int(header.dropFirst(prefix.count).dropLast()),
      (oldestExportVersion...Schema.version).contains(version)
    else {
      throw invalid(
        "it is not a juice-maker export of schema version \(oldestExportVersion) to "
          + "\(Schema.version) (\(exportFormat))")
    }
    lines.removeFirst()
    // Created empty first: no stock rows for the catalog's fruits, so the export's are
    // the only ones.
    let created = try PostgresStockStorage(uri: uri, fruits: [], creating: .always)
    do throws(PostgresError) {
      let connection = try Connection(
        uri: created.uri, connectTimeout: created.connectTimeout, timeouts: nil)
      try connection.execute("BEGIN; SET LOCAL statement_timeout = 0")
      var start = lines.startIndex
      while start < lines.endIndex {
        let end = lines.index(start, offsetBy: batch, limitedBy: lines.endIndex) ?? lines.endIndex
        let array = "[" + lines[start..<end].joined(separator: ",") + "]"
        try connection.execute(
          """
          WITH line AS (SELECT e FROM jsonb_array_elements($1::jsonb) AS e),
          stock AS (
            INSERT INTO stock (fruit, level, initial)
            SELECT e ->> 1, (e ->> 2)::bigint, (e ->> 3)::bigint FROM line WHERE e ->> 0 = 'stock'),
          files AS (
            INSERT INTO menu_file (name, contents, version)
            SELECT e ->> 1, decode(e ->> 2, 'base64'), (e ->> 3)::bigint
            FROM line WHERE e ->> 0 = 'menu_file'),
          publications AS (
            INSERT INTO menu_publication (version, time, editor, published, retired)
            SELECT (e ->> 1)::bigint, to_timestamp((e ->> 2)::float8), e ->> 3, e ->> 4, e ->> 5
            FROM line WHERE e ->> 0 = 'menu_publication')
          INSERT INTO journal (sequence, request_id, time, editor, action, subject, count,
            expected, outcome, actual, shortages, changes, price, currency, used, par)
          OVERRIDING SYSTEM VALUE
          SELECT (e ->> 1)::bigint, e ->> 2, to_timestamp((e ->> 3)::float8), e ->> 4, e ->> 5,
            e ->> 6, (e ->> 7)::bigint, (e ->> 8)::bigint, e ->> 9, (e ->> 10)::bigint,
            nullif(e -> 11, 'null'::jsonb), e -> 12, (e ->> 13)::bigint, e ->> 14,
            (e ->> 15)::bigint, (e ->> 16)::bigint
          FROM line WHERE e ->> 0 = 'journal'
          """, [array])
        start = end
      }
      try connection.execute(
        """
        SELECT setval(pg_get_serial_sequence('journal', 'sequence'),
          coalesce(max(sequence), 1), max(sequence) IS NOT NULL) FROM journal;
        COMMIT
        """)
    } catch {
      // The tables made above go again, so the same restore can be tried once more.
      if let connection = try? Connection(
        uri: created.uri, connectTimeout: created.connectTimeout, timeouts: nil)
      {
        _ = try? connection.execute(
          """
          DROP TABLE IF EXISTS journal, stock, menu_file, menu_publication,
            juice_maker_migrations, juice_maker_meta
          """)
      }
      throw .invalid(store: location, cause: error.failure("restoring the backup"))
    }
    return try PostgresStockStorage(uri: uri, fruits: fruits, creating: .never)
  }
}

/// A new file written under a temporary name and linked in under its own once whole,
/// never over an existing file.
private final class ExportFile {
  private let path: String
  private let temporary: String
  private let descriptor: Int32
  private var closed = false

  init(_ path: String) throws(StockStorageError) {
    self.path = path
    temporary = path + ".partial-" + UUID().uuidString.prefix(8)
    var status = stat()
    if stat(path, &status) == 0 {
      throw .alreadyExists(
        store: path,
        cause: StorageFailure(
          code: "", message: "a file is there already; it is never overwritten",
          purpose: "writing the backup"))
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .unavailable(
        store: path,
        cause: StorageFailure(
          code: "", message: String(cString: strerror(errno)), purpose: "writing the backup"))
    }
    self.descriptor = descriptor
  }

  deinit {
    if !closed { close(descriptor) }
    unlink(temporary)
  }

  func write(_ text: String, location: String) throws(StockStorageError) {
    var text = text
    let written = text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return true }
      var offset = 0
      while offset < bytes.count {
        let count = systemWrite(descriptor, base + offset, bytes.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += count
      }
      return true
    }
    guard written else { throw failure() }
  }

  func finish(location: String) throws(StockStorageError) {
    closed = true
    let synchronized = fsync(descriptor) == 0
    let cause = errno
    guard close(descriptor) == 0, synchronized else {
      if !synchronized { errno = cause }
      throw failure()
    }
    guard link(temporary, path) == 0 else {
      throw .alreadyExists(
        store: path,
        cause: StorageFailure(
          code: "", message: String(cString: strerror(errno)), purpose: "writing the backup"))
    }
  }

  /// The failure `errno` names, writing the backup.
  private func failure() -> StockStorageError {
    .unavailable(
      store: path,
      cause: StorageFailure(
        code: "", message: String(cString: strerror(errno)), purpose: "writing the backup"))
  }
}

/// `write(2)`, named apart from `ExportFile.write(_:location:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
