/// Horizontal bars of Unicode block elements, eight steps to a column, for a chart beside a
/// table in the terminal.
enum BarChart {
  /// The blocks of one to seven eighths of a column.
  private static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

  /// A bar of `value` out of `maximum`, the longest `width` columns; every value above 0
  /// gets at least an eighth, so a small figure is not shown as none.
  ///
  /// - Returns: The bar, at most `width` columns wide (each block is one column).
  static func bar(_ value: Int64, of maximum: Int64, width: Int) -> String {
    guard value > 0, maximum > 0, width > 0 else { return "" }
    let steps = max(1, Int((Double(value) / Double(maximum) * Double(width * 8)).rounded()))
    let full = min(steps / 8, width)
    let rest = full == width ? 0 : steps % 8
    return String(repeating: "█", count: full) + (rest > 0 ? String(eighths[rest - 1]) : "")
  }

  /// The columns a chart gets beside a table: what the terminal leaves, at most 40 and at
  /// least 10 (a narrow terminal wraps the line rather than losing the chart).
  static func width(terminal: Int, table: Int) -> Int {
    min(40, max(10, terminal - table - 2))
  }
}
