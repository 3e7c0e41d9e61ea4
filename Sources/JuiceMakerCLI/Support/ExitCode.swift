/// The exit codes of `juice-maker`, following sysexits(3) where one applies.
public enum ExitCode: Int32, Sendable, CaseIterable {
  /// The command did what was asked.
  case success = 0
  /// An order or a stock removal was refused because some fruit is short.
  case refused = 1
  /// The command line is wrong: an unknown command, option, juice or fruit, or a
  /// count that is not a positive whole number (`EX_USAGE`).
  case usage = 64
  /// A pack, string catalog or store file is invalid (`EX_DATAERR`).
  case dataError = 65
  /// A file could not be read or written, or the store is locked (`EX_IOERR`).
  case ioError = 74
}
