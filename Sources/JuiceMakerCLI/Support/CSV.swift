/// Comma-separated values as RFC 4180 writes them: CRLF line ends, and a field quoted
/// when it holds a comma, a quote or a line break, its quotes doubled.
enum CSV {
  /// The document of a header row and the rows after it.
  static func document(header: [String], rows: [[String]]) -> String {
    ([header] + rows).map(line).joined()
  }

  /// One record, ending in CRLF.
  static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
  }

  /// One field, quoted when it must be.
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacing("\"", with: "\"\"") + "\""
  }
}
