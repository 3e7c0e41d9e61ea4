// MARK: - Damage

extension Schema {
  /// The type of every column of the store's tables at the current schema version, as
  /// `format_type` names it; a migration that changes a column changes it here too.
  static let columns: [(table: String, name: String, type: String)] = [
    ("stock", "id", "bigint"), ("stock", "fruit", "text"), ("stock", "level", "bigint"),
    ("stock", "initial", "bigint"),
    ("journal", "sequence", "bigint"), ("journal", "request_id", "text"),
    ("journal", "time", "timestamp with time zone"), ("journal", "editor", "text"),
    ("journal", "action", "text"), ("journal", "subject", "text"),
    ("journal", "count", "bigint"), ("journal", "expected", "bigint"),
    ("journal", "outcome", "text"), ("journal", "actual", "bigint"),
    ("journal", "shortages", "jsonb"), ("journal", "changes", "jsonb"),
    ("journal", "price", "bigint"), ("journal", "currency", "text"),
    ("journal", "used", "bigint"), ("journal", "par", "bigint"),
    ("menu_file", "name", "text"), ("menu_file", "contents", "bytea"),
    ("menu_file", "version", "bigint"),
    ("menu_publication", "version", "bigint"),
    ("menu_publication", "time", "timestamp with time zone"),
    ("menu_publication", "editor", "text"), ("menu_publication", "published", "text"),
    ("menu_publication", "retired", "text"),
  ]

  /// What is wrong with the columns of the store's tables, or `nil` when each one the
  /// store reads is there with its type: a column altered to another type
  /// (`numeric(30,2)` for a level) would be read as nothing, or as a wrong number.
  ///
  /// One catalog query; columns the store does not know are left alone.
  ///
  /// - Returns: Each problem, such as `column stock.level has type numeric(30,2), not
  ///   bigint`, joined with `; `.
  /// - Throws: `PostgresError` when the catalog cannot be read.
  static func columnDamage(_ connection: Connection) throws(PostgresError) -> String? {
    let result = try connection.execute(
      """
      SELECT c.relname || '.' || a.attname, format_type(a.atttypid, a.atttypmod)
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname IN ('stock', 'journal', 'menu_file', 'menu_publication')
        AND a.attnum > 0 AND NOT a.attisdropped
      """)
    var found: [String: String] = [:]
    for row in 0..<result.count {
      if let name = result.text(row, 0) { found[name] = result.text(row, 1) }
    }
    let problems = columns.compactMap { column -> String? in
      let name = "\(column.table).\(column.name)"
      guard let type = found[name] else { return "column \(name) is missing" }
      return type == column.type ? nil : "column \(name) has type \(type), not \(column.type)"
    }
    return problems.isEmpty ? nil : problems.joined(separator: "; ")
  }
}
