/// A table for the terminal: a header row and rows of cells, in columns aligned by
/// display width (Hangul takes two columns), numbers right-aligned; no trailing spaces.
struct TextTable {
  /// How a column's cells line up.
  enum Alignment {
    case left
    case right
  }

  let header: [String]
  let alignments: [Alignment]
  var rows: [[String]] = []

  /// The lines of the table, the header first.
  func lines() -> [String] {
    let all = [header] + rows
    var widths = [Int](repeating: 0, count: header.count)
    for row in all {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.displayWidth)
      }
    }
    return all.map { row in
      var line = ""
      for (index, cell) in row.enumerated() {
        if index > 0 { line += "  " }
        let padding = String(repeating: " ", count: max(0, widths[index] - cell.displayWidth))
        line += alignments[index] == .right ? padding + cell : cell + padding
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
