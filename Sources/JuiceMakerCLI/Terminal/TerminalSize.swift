#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal's size in character cells.
struct TerminalSize: Hashable, Sendable {
  /// Columns.
  var width: Int
  /// Rows.
  var height: Int

  /// The size the shop is laid out for when the terminal cannot tell.
  static let fallback = TerminalSize(width: 80, height: 24)

  /// The size of the terminal on a descriptor, from `TIOCGWINSZ`; `nil` when it is not a
  /// terminal or reports no size.
  static func of(descriptor: Int32) -> TerminalSize? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return TerminalSize(width: Int(size.ws_col), height: Int(size.ws_row))
  }
}
