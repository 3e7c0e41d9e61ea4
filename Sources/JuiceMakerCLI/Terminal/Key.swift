/// One key press, decoded from the bytes a terminal sends.
enum Key: Hashable, Sendable {
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, escape, backspace, delete, tab
  /// Ctrl-C: the interrupt key, read as a key because raw mode turns signals off.
  case interrupt
  /// Ctrl-D: the end of input at an empty prompt.
  case endOfInput
  /// Ctrl-L: redraw the screen.
  case redraw
  /// A printable character, ASCII or not.
  case character(Character)
  /// A sequence or control byte the shop has no use for.
  case unknown
}
