/// Draws frames on the terminal, rewriting only the rows that changed.
///
/// Every row is placed with an absolute cursor move and cleared first, so nothing
/// depends on where the previous frame left the cursor; rows are cut to the screen's
/// width by display columns, so nothing is drawn past the right edge.
struct ScreenWriter {
  private let terminal: TerminalMode
  private let colors: Bool
  private var shown: [ScreenLine] = []
  private var shownSize: TerminalSize?

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - terminal: Where to draw.
  ///   - colors: Whether to use colours besides bold, dim and reverse video.
  init(terminal: TerminalMode, colors: Bool) {
    self.terminal = terminal
    self.colors = colors
  }

  /// Whether colours may be used: `NO_COLOR` is unset or empty and `TERM` names a
  /// terminal known to have them.
  static func colorsEnabled(environment: [String: String]) -> Bool {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    let term = environment["TERM"] ?? ""
    return ["xterm", "screen", "tmux", "rxvt", "linux", "vt220", "alacritty", "kitty"].contains {
      term.hasPrefix($0)
    } || term.contains("color")
  }

  /// Forgets what is on the screen, so the next frame is drawn whole.
  mutating func invalidate() {
    shownSize = nil
  }

  /// Draws a frame.
  mutating func draw(_ lines: [ScreenLine], size: TerminalSize) {
    var output = ""
    if shownSize != size {
      output += "\u{1B}[0m\u{1B}[2J"
      shown = []
      shownSize = size
    }
    for row in 0..<size.height {
      let line = row < lines.count ? lines[row] : ScreenLine.blank
      if row < shown.count, shown[row] == line { continue }
      // The row is cleared before it is written: clearing after it would also erase a
      // character written in the last column, where the cursor then stays.
      output +=
        "\u{1B}[\(row + 1);1H\u{1B}[2K" + sgr(line.style) + line.text.truncated(to: size.width)
        + "\u{1B}[0m"
    }
    shown = (0..<size.height).map { $0 < lines.count ? lines[$0] : ScreenLine.blank }
    if !output.isEmpty { terminal.send(output) }
  }

  private func sgr(_ style: ScreenLine.Style) -> String {
    switch style {
    case .plain: ""
    case .title: "\u{1B}[1m"
    case .selected: "\u{1B}[7m"
    case .dimmed: "\u{1B}[2m"
    case .good: colors ? "\u{1B}[32m" : ""
    case .bad: colors ? "\u{1B}[31m" : "\u{1B}[1m"
    case .status: colors ? "\u{1B}[36m" : ""
    }
  }
}
