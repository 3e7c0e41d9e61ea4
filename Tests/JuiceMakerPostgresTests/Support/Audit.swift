import Testing

@testable import JuiceMakerPostgres

/// Reads a store's tables directly, to check them against the journal.
struct Audit {
  let connection: Connection

  init(_ uri: String) throws {
    connection = try Connection(uri: ConnectionURI(uri), connectTimeout: .seconds(5))
  }

  /// Each fruit's level.
  func levels() throws -> [String: Int] {
    let result = try connection.execute("SELECT fruit, level FROM stock")
    var levels: [String: Int] = [:]
    for row in 0..<result.count {
      levels[try #require(result.text(row, 0))] = Int(try #require(result.integer(row, 1)))
    }
    return levels
  }

  /// Each fruit's initial level plus the sum of its journaled changes.
  func journaledLevels() throws -> [String: Int] {
    let result = try connection.execute(
      """
      SELECT s.fruit, s.initial + coalesce(sum((c->>2)::bigint - (c->>1)::bigint), 0)
      FROM stock s LEFT JOIN (journal j CROSS JOIN jsonb_array_elements(j.changes) c)
        ON c->>0 = s.fruit
      GROUP BY s.fruit, s.initial
      """)
    var levels: [String: Int] = [:]
    for row in 0..<result.count {
      levels[try #require(result.text(row, 0))] = Int(try #require(result.integer(row, 1)))
    }
    return levels
  }

  /// How many journal rows there are.
  func journalCount() throws -> Int {
    Int(try #require(try connection.execute("SELECT count(*) FROM journal").integer(0, 0)))
  }

  /// The public tables of the database, sorted.
  func tables() throws -> [String] {
    let result = try connection.execute(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    return (0..<result.count).compactMap { result.text($0, 0) }
  }
}
