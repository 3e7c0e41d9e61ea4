import FoundationEssentials
import JuiceMakerKit

/// The menu layer's two tables: `menu_file`, the files published now, and
/// `menu_publication`, the log of publications, whose newest version is the layer's.
extension Session {
  /// The layer's version: the newest publication's, 0 before the first.
  func menuVersion() throws(StockStorageError) -> Int {
    let purpose = "reading the menu's version"
    let result = try reading(purpose) { () throws(PostgresError) in
      try connection.execute(
        prepared: "menu_version", "SELECT coalesce(max(version), 0) FROM menu_publication", [])
    }
    guard let version = result.integer(0, 0) else {
      throw damaged("the menu's version could not be read", purpose)
    }
    return Int(version)
  }

  /// The files of the layer, in name order, and its version, read by one statement, so
  /// they agree.
  func publishedMenu() throws(StockStorageError) -> PublishedMenu {
    let purpose = "reading the menu"
    // One row with no file when the layer holds none.
    let result = try reading(purpose) { () throws(PostgresError) in
      try connection.execute(
        prepared: "menu_files",
        """
        SELECT v.version, f.name, encode(f.contents, 'hex'), f.version
        FROM (SELECT coalesce(max(version), 0) AS version FROM menu_publication) AS v
          LEFT JOIN menu_file AS f ON true
        ORDER BY f.name COLLATE "C"
        """, [])
    }
    var version: Int64 = 0
    var files: [PublishedFile] = []
    for row in 0..<result.count {
      version = result.integer(row, 0) ?? -1
      guard let name = result.text(row, 1) else { continue }
      guard let contents = result.text(row, 2).flatMap(Self.bytes(hex:)),
        let written = result.integer(row, 3), written >= 1, written <= version
      else {
        throw damaged("a file of the menu is damaged (\(name))", purpose)
      }
      files.append(PublishedFile(name: name, contents: contents))
    }
    guard version >= 0 else { throw damaged("the menu's version could not be read", purpose) }
    return PublishedMenu(version: Int(version), files: files)
  }

  /// Publishes and retires files in one transaction that takes `menu_publication`'s lock
  /// (`EXCLUSIVE`: readers go on, a second publisher waits) before it checks the version
  /// and the names to retire, so two publishers cannot both pass (the log's primary key,
  /// the version, backs the lock: a duplicate version is a moved one); announced after
  /// the commit, as an operation is.
  ///
  /// - Returns: The publication, or `nil` when the version is not `expectingVersion` or
  ///   a name to retire is not in the layer; nothing was written then.
  /// - Throws: `StockStorageError.invalid` for names a publication cannot hold (see
  ///   `MenuNames.problem(published:retired:)`), before anything is sent;
  ///   `.unavailable` when the server fails, or another session holds the lock past the
  ///   lock timeout (nothing was written), or the connection was lost after `COMMIT` was
  ///   sent (the publication may have been kept: the log tells).
  func publish(
    _ files: [PublishedFile], retiring names: [String], by editor: String,
    expectingVersion: Int
  ) throws(StockStorageError) -> MenuPublication? {
    let purpose = "publishing the menu"
    if let problem = MenuNames.problem(published: files.map(\.name), retired: names) {
      throw .invalid(
        store: location, cause: StorageFailure(code: "", message: problem, purpose: purpose))
    }
    let published = MenuNames.sorted(files.map(\.name))
    let retired = MenuNames.sorted(names)
    var commitSent = false
    do throws(PostgresError) {
      if !connection.isOpen { try connection.connect() }
      try connection.execute(prepared: "begin", "BEGIN", [])
      try connection.execute("LOCK TABLE menu_publication IN EXCLUSIVE MODE")
      // Read after the lock is held: in READ COMMITTED, this statement sees every
      // publication committed before it.
      let state = try connection.execute(
        prepared: "menu_state",
        """
        SELECT (SELECT coalesce(max(version), 0) FROM menu_publication),
          (SELECT count(*) FROM menu_file WHERE name = ANY($1::text[]))
        """, [arrayLiteral(retired)])
      guard let version = state.integer(0, 0), version == Int64(expectingVersion),
        state.integer(0, 1) == Int64(retired.count)
      else {
        try connection.execute(prepared: "rollback", "ROLLBACK", [])
        return nil
      }
      let next = version + 1
      if !files.isEmpty {
        try connection.execute(
          prepared: "menu_write",
          """
          INSERT INTO menu_file (name, contents, version)
          SELECT n, decode(c, 'hex'), $3::bigint FROM unnest($1::text[], $2::text[]) AS f(n, c)
          ON CONFLICT (name) DO UPDATE SET contents = excluded.contents, version = excluded.version
          """,
          [
            arrayLiteral(files.map(\.name)), arrayLiteral(files.map { Self.hex($0.contents) }),
            String(next),
          ])
      }
      if !retired.isEmpty {
        try connection.execute(
          prepared: "menu_retire", "DELETE FROM menu_file WHERE name = ANY($1::text[])",
          [arrayLiteral(retired)])
      }
      let logged = try connection.execute(
        prepared: "menu_log",
        """
        INSERT INTO menu_publication (version, editor, published, retired)
        VALUES ($1, $2, $3, $4) RETURNING extract(epoch FROM time)::text
        """,
        [String(next), editor, MenuNames.encoded(published), MenuNames.encoded(retired)])
      guard let date = logged.text(0, 0).flatMap(Self.date) else {
        throw PostgresError(
          code: "", message: "the publication's row came back empty", connectionLost: false)
      }
      commitSent = true
      let results = try connection.executeEach(
        "COMMIT; SELECT pg_notify('\(PostgresStockStorage.channel)', 'menu \(next)')",
        after: afterCommitSent)
      if let failure = results.first, let error = failure { throw error }
      return MenuPublication(
        version: Int(next), date: date, editor: editor, published: published, retired: retired)
    } catch {
      rollBack()
      // The log's primary key is the version: a publication that took it meanwhile moved
      // the version, whatever lock it took.
      if !commitSent && error.code == PostgresError.uniqueViolation { return nil }
      var cause = error.failure(purpose, waitingFor: "the menu's lock")
      if commitSent && error.connectionLost {
        cause.message +=
          "; the connection was lost after COMMIT was sent, so the publication may have "
          + "been kept: the menu's publications tell"
      }
      throw .unavailable(store: location, cause: cause)
    }
  }

  /// The publications, newest first; at most `limit` of them.
  func menuPublications(limit: Int?) throws(StockStorageError) -> [MenuPublication] {
    let purpose = "reading the menu's publications"
    let result = try reading(purpose) { () throws(PostgresError) in
      try connection.execute(
        prepared: "menu_publications",
        """
        SELECT version, extract(epoch FROM time)::text, editor, published, retired
        FROM menu_publication ORDER BY version DESC LIMIT $1::bigint
        """, [limit.map { String(max(0, $0)) }])
    }
    var publications: [MenuPublication] = []
    for row in 0..<result.count {
      let version = result.integer(row, 0) ?? 0
      guard let date = result.text(row, 1).flatMap(Self.date), let editor = result.text(row, 2),
        let published = result.text(row, 3).flatMap(MenuNames.decoded),
        let retired = result.text(row, 4).flatMap(MenuNames.decoded)
      else {
        throw damaged("menu publication \(version) is damaged", purpose)
      }
      publications.append(
        MenuPublication(
          version: Int(version), date: date, editor: editor, published: published,
          retired: retired))
    }
    return publications
  }

  // MARK: - Hex

  /// The bytes as lowercase hex digits, which `decode(…, 'hex')` reads.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of hex digits, as `encode(…, 'hex')` writes them; `nil` for other text.
  static func bytes(hex text: String) -> [UInt8]? {
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }
}
