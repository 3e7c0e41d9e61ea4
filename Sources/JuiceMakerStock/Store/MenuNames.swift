/// The names of a menu layer's files as the SQL storages keep them: which names a
/// publication may give, their order, and the one text column a publication's list of
/// names is kept in.
///
/// One rule for every storage, so an SQLite and a PostgreSQL store keep the same log.
package enum MenuNames {
  /// Whether `first` comes before `second` in name order: by their UTF-8 bytes, the
  /// order of SQLite's `BINARY` and PostgreSQL's `"C"` collation.
  package static func precedes(_ first: String, _ second: String) -> Bool {
    first.utf8.lexicographicallyPrecedes(second.utf8)
  }

  /// The names in name order.
  package static func sorted(_ names: some Sequence<String>) -> [String] {
    names.sorted(by: precedes)
  }

  /// What is wrong with the names of a publication, or `nil` when nothing is: an empty
  /// name, a name holding a line feed or a NUL, a name given twice, or a name both
  /// published and retired.
  ///
  /// - Parameters:
  ///   - published: The names of the files to publish.
  ///   - retired: The names of the files to retire.
  /// - Complexity: O(*n*) in the total length of the names.
  package static func problem(published: [String], retired: [String]) -> String? {
    var seen: Set<String> = []
    for name in published + retired {
      if name.isEmpty { return "a file name is empty" }
      if name.utf8.contains(where: { $0 == 0x0A || $0 == 0 }) {
        return "the file name \(name.debugDescription) holds a line feed or a NUL"
      }
      if !seen.insert(name).inserted {
        return "the file name \(name.debugDescription) is given twice"
      }
    }
    return nil
  }

  /// The names as one column's text: in name order, joined by line feeds; empty for
  /// no names.
  package static func encoded(_ names: [String]) -> String {
    sorted(names).joined(separator: "\n")
  }

  /// The names a column's text holds, or `nil` when it is not what `encoded(_:)`
  /// writes: an empty name, or names out of name order or given twice.
  package static func decoded(_ text: String) -> [String]? {
    if text.isEmpty { return [] }
    // Split on the byte: a "\r\n" is one `Character`, and would not be split.
    let names = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    for (first, second) in zip(names, names.dropFirst()) where !precedes(first, second) {
      return nil
    }
    guard names.allSatisfy({ !$0.isEmpty && !$0.utf8.contains(0) }) else { return nil }
    return names
  }
}
