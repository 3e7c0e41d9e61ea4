/// One row of a full-screen frame: plain text no wider than the screen, and how to
/// show it.
struct ScreenLine: Hashable, Sendable {
  /// How a row is shown; the text alone must make sense without any of it, since a
  /// terminal may show no attributes or colours.
  enum Style: Hashable, Sendable {
    case plain
    /// A screen's title: bold.
    case title
    /// The chosen row: reverse video.
    case selected
    /// A row that cannot be used now (a juice that cannot be made): dim.
    case dimmed
    /// A success message: green.
    case good
    /// A refusal or an error: red.
    case bad
    /// What other shops just did: cyan.
    case status
  }

  var text: String
  var style: Style

  init(_ text: String, _ style: Style = .plain) {
    self.text = text
    self.style = style
  }

  /// An empty row.
  static let blank = ScreenLine("")
}
