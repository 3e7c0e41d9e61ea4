import FoundationEssentials
import JuiceMakerKit

/// The menu layer's two tables: `menu_file`, the files published now, and
/// `menu_publication`, the log of publications, whose newest version is the layer's.
extension StockTables {
  /// The layer's version: the newest publication's, 0 before the first.
  func menuVersion() throws(StockStorageError) -> Int {
    try checkFiles()
    return try readMenuVersion()
  }

  private func readMenuVersion() throws(StockStorageError) -> Int {
    defer { selectMenuVersion.reset() }
    guard try selectMenuVersion.step() else {
      throw database.context.invalid(
        "the menu's version could not be read", purpose: selectMenuVersion.purpose)
    }
    return Int(selectMenuVersion.integer(at: 0))
  }

  /// The files of the layer and its version, read by one statement, so they agree.
  func publishedMenu() throws(StockStorageError) -> PublishedMenu {
    try checkFiles()
    // One row with no file when the layer holds none.
    let select = try database.prepare(
      """
      SELECT v.version, f.name, f.contents, f.version
      FROM (SELECT coalesce(max(version), 0) AS version FROM menu_publication) AS v
        LEFT JOIN menu_file AS f ON 1
      ORDER BY f.name
      """, purpose: "reading the menu")
    var version = 0
    var files: [PublishedFile] = []
    while try select.step() {
      version = Int(select.integer(at: 0))
      if select.isNull(at: 1) { continue }
      let written = select.integer(at: 3)
      guard let name = select.text(at: 1), let contents = select.bytes(at: 2), written >= 1,
        written <= Int64(version)
      else {
        throw database.context.invalid(
          "a file of the menu is damaged (\(select.text(at: 1) ?? "no name"))",
          purpose: select.purpose)
      }
      files.append(PublishedFile(name: name, contents: contents))
    }
    return PublishedMenu(version: version, files: files)
  }

  /// Publishes and retires files in one `BEGIN IMMEDIATE` transaction, which checks the
  /// version and the names to retire once it holds the write lock.
  ///
  /// The store's files are checked before anything is written and again after the
  /// commit, as for an operation.
  ///
  /// - Returns: The publication, or `nil` when the version is not `expectingVersion` or
  ///   a name to retire is not in the layer; nothing was written then.
  /// - Throws: `StockStorageError.invalid` for names a publication cannot hold (see
  ///   `MenuNames.problem(published:retired:)`), before anything is read;
  ///   `.replaced` when the path no longer names the store's files, before the write
  ///   (nothing was written) or after the commit (the publication went to a file the path
  ///   no longer names).
  func publish(
    _ files: [PublishedFile], retiring names: [String], by editor: String,
    expectingVersion: Int
  ) throws(StockStorageError) -> MenuPublication? {
    let purpose = "publishing the menu"
    if let problem = MenuNames.problem(published: files.map(\.name), retired: names) {
      throw database.context.invalid(problem, purpose: purpose)
    }
    let publication = try database.transaction {
      () throws(StockStorageError) -> MenuPublication? in
      try checkFiles()
      let version = try readMenuVersion()
      guard version == expectingVersion else { return nil }
      if !names.isEmpty {
        let present = try database.prepare(
          "SELECT 1 FROM menu_file WHERE name = ?1", purpose: purpose)
        for name in names {
          defer { present.reset() }
          try present.bind(name, at: 1)
          guard try present.step() else { return nil }
        }
      }
      let next = version + 1
      if !files.isEmpty {
        let write = try database.prepare(
          """
          INSERT INTO menu_file (name, contents, version) VALUES (?1, ?2, ?3)
          ON CONFLICT (name) DO UPDATE SET contents = excluded.contents, version = excluded.version
          """, purpose: purpose)
        for file in files {
          try write.bind(file.name, at: 1)
          try write.bind(file.contents, at: 2)
          try write.bind(Int64(next), at: 3)
          try write.run()
        }
      }
      if !names.isEmpty {
        let delete = try database.prepare(
          "DELETE FROM menu_file WHERE name = ?1", purpose: purpose)
        for name in names {
          try delete.bind(name, at: 1)
          try delete.run()
        }
      }
      // The date as the column keeps it, so a read gives back the same publication.
      let date = Date(timeIntervalSince1970: Date().timeIntervalSince1970)
      let published = MenuNames.sorted(files.map(\.name))
      let retired = MenuNames.sorted(names)
      let log = try database.prepare(
        """
        INSERT INTO menu_publication (version, time, editor, published, retired)
        VALUES (?1, ?2, ?3, ?4, ?5)
        """, purpose: purpose)
      try log.bind(Int64(next), at: 1)
      try log.bind(date.timeIntervalSince1970, at: 2)
      try log.bind(editor, at: 3)
      try log.bind(MenuNames.encoded(published), at: 4)
      try log.bind(MenuNames.encoded(retired), at: 5)
      try log.run()
      return MenuPublication(
        version: next, date: date, editor: editor, published: published, retired: retired)
    }
    guard let publication else { return nil }
    try checkFiles()
    return publication
  }

  /// The publications, newest first; at most `limit` of them.
  func menuPublications(limit: Int?) throws(StockStorageError) -> [MenuPublication] {
    try checkFiles()
    let select = try database.prepare(
      """
      SELECT version, time, editor, published, retired FROM menu_publication
      ORDER BY version DESC LIMIT ?1
      """, purpose: "reading the menu's publications")
    try select.bind(Int64(limit.map { max(0, $0) } ?? -1), at: 1)
    var publications: [MenuPublication] = []
    while try select.step() {
      let version = select.integer(at: 0)
      guard !select.isNull(at: 1), let editor = select.text(at: 2),
        let published = select.text(at: 3).flatMap(MenuNames.decoded),
        let retired = select.text(at: 4).flatMap(MenuNames.decoded)
      else {
        throw database.context.invalid(
          "menu publication \(version) is damaged", purpose: select.purpose)
      }
      publications.append(
        MenuPublication(
          version: Int(version), date: Date(timeIntervalSince1970: select.double(at: 1)),
          editor: editor, published: published, retired: retired))
    }
    return publications
  }
}
