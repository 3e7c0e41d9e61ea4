import Foundation

/// Reads the times `history --since` takes.
enum TimeText {
  /// Parses a time: an ISO 8601 date and time with an offset or `Z`
  /// (`2026-11-23T09:30:00+09:00`), a local date and time (`2026-11-23 09:30`, seconds
  /// optional, `T` or a space between), a local date (`2026-11-23`, its midnight), or an
  /// age (`90s`, `30m`, `2h`, `7d`: that long before now).
  ///
  /// - Parameters:
  ///   - text: The time as given.
  ///   - option: The option, as messages name it.
  ///   - now: The present, for ages.
  /// - Returns: The date.
  /// - Throws: `CLIError.invalidTime` naming the text.
  static func date(from text: String, for option: String, now: Date = Date()) throws(CLIError)
    -> Date
  {
    let trimmed = text.trimmingWhitespace()
    if let unit = trimmed.last, let seconds = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][unit],
      let amount = Int(trimmed.dropLast()), amount >= 0, trimmed.dropLast().allSatisfy(\.isASCII)
    {
      return now.addingTimeInterval(-Double(amount) * seconds)
    }
    let zoned = ISO8601DateFormatter()
    for options in [
      [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
    ] as [ISO8601DateFormatter.Options] {
      zoned.formatOptions = options
      if let date = zoned.date(from: trimmed) { return date }
    }
    let local = DateFormatter()
    local.locale = Locale(identifier: "en_US_POSIX")
    local.timeZone = TimeZone.current
    for format in [
      "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm",
      "yyyy-MM-dd",
    ] {
      local.dateFormat = format
      if let date = local.date(from: trimmed) { return date }
    }
    throw .invalidTime(value: text, option: option)
  }
}
