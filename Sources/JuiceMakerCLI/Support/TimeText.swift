import FoundationEssentials
import JuiceMakerCatalog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the times `history --since` takes, once, before any store sees them, so that
/// every store gets the same instant or none.
enum TimeText {
  /// The earliest time read, as messages show it.
  static let earliest = "0001-01-01T00:00:00Z"
  /// The latest time read, as messages show it.
  static let latest = "9999-12-31T23:59:59Z"
  /// The instants from ``earliest`` to ``latest``, in seconds since 1970.
  static let range: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
  /// The largest UTC offset read, in seconds: 14:00, the largest any zone uses.
  static let maximumOffset = 14 * 3600

  /// Parses a time: an ISO 8601 date and time with an offset or `Z`
  /// (`2026-11-23T09:30:00+09:00`), a local date and time (`2026-11-23 09:30`, seconds
  /// optional, `T` or a space between), a local date (`2026-11-23`, its midnight), or an
  /// age (`90s`, `30m`, `2h`, `7d`: that long before now).
  ///
  /// Digits are ASCII, offsets at most ±14:00, and the time between ``earliest`` and
  /// ``latest``. A local time the clocks skipped (a gap as daylight saving time starts)
  /// is the first instant after the gap (`02:30` in New York on 2026-03-08 is 03:00
  /// EDT); a local time the clocks showed twice (an overlap as it ends) is the later
  /// instant (`01:30` on 2026-11-01 is 01:30 EST).
  ///
  /// - Parameters:
  ///   - text: The time as given.
  ///   - option: The option, as messages name it.
  ///   - now: The present, for ages.
  ///   - offsets: The local clock's offset from UTC, in seconds, at an instant in seconds
  ///     since 1970: ``localOffset(at:)``, the system's local time, unless told otherwise.
  /// - Returns: The date.
  /// - Throws: `CLIError.invalidTime` naming the text when it is not a time;
  ///   `.timeOutOfRange` when it is one outside the range.
  static func date(
    from text: String, for option: String, now: Date = Date(),
    offsets: (Int64) -> Int64 = { Int64(localOffset(at: $0)) }
  ) throws(CLIError) -> Date {
    let trimmed = Array(text.trimmingWhitespace().utf8)
    let invalid = CLIError.invalidTime(value: text, option: option)
    let outOfRange = CLIError.timeOutOfRange(value: text, option: option)
    if let unit = trimmed.last, let seconds = ageUnits[unit] {
      let digits = trimmed.dropLast()
      guard !digits.isEmpty, digits.allSatisfy(isDigit) else { throw invalid }
      guard let amount = Int64(String(decoding: digits, as: UTF8.self)),
        case (let age, false) = amount.multipliedReportingOverflow(by: seconds),
        case (let instant, false) = Int64(now.timeIntervalSince1970.rounded(.down))
          .subtractingReportingOverflow(age),
        range.contains(instant)
      else { throw outOfRange }
      return now.addingTimeInterval(-Double(age))
    }
    var scanner = Scanner(trimmed)
    guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2),
      scanner.skip("-"), let day = scanner.number(2), (1...12).contains(month),
      (1...days(inMonth: month, of: year)).contains(day)
    else { throw invalid }
    var wall = Int64(daysSince1970(year: year, month: month, day: day)) * 86400
    var fraction = 0.0
    if !scanner.isAtEnd {
      guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
        let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2),
        hour < 24, minute < 60
      else { throw invalid }
      var second = 0
      if scanner.skip(":") {
        guard let value = scanner.number(2), value < 60 else { throw invalid }
        second = value
        if scanner.skip(".") {
          guard let digits = scanner.digits(), digits.count <= 9 else { throw invalid }
          fraction = Double("0." + digits) ?? 0
        }
      }
      wall += Int64(hour * 3600 + minute * 60 + second)
    }
    let instant: Int64
    if scanner.isAtEnd {
      instant = localInstant(wall, offsets: offsets)
    } else if scanner.skip("Z") || scanner.skip("z") {
      instant = wall
    } else if let sign: Int64 = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : nil {
      guard let hours = scanner.number(2) else { throw invalid }
      _ = scanner.skip(":")
      guard let minutes = scanner.number(2), minutes < 60,
        hours * 3600 + minutes * 60 <= maximumOffset
      else { throw invalid }
      instant = wall - sign * Int64(hours * 3600 + minutes * 60)
    } else {
      throw invalid
    }
    guard scanner.isAtEnd else { throw invalid }
    guard range.contains(instant) else { throw outOfRange }
    return Date(timeIntervalSince1970: Double(instant) + fraction)
  }

  /// The seconds in each unit of an age.
  private static let ageUnits: [UInt8: Int64] = [
    UInt8(ascii: "s"): 1, UInt8(ascii: "m"): 60, UInt8(ascii: "h"): 3600, UInt8(ascii: "d"): 86400,
  ]

  /// The instant a zone's clocks show `wall` (seconds since 1970 as if the zone were
  /// UTC): the later one in an overlap, the first instant after a gap.
  static func localInstant(_ wall: Int64, offsets offset: (Int64) -> Int64) -> Int64 {
    let offsets = Set([wall - 86400, wall, wall + 86400].map(offset))
    let valid = offsets.map { wall - $0 }.filter { offset($0) == wall - $0 }
    if let latest = valid.max() { return latest }
    // A gap: the clocks jumped from the smaller offset to the larger one somewhere in
    // between the two readings; find the first second of the larger one.
    var before = wall - (offsets.max() ?? 0)
    var after = wall - (offsets.min() ?? 0)
    let later = offset(after)
    while after - before > 1 {
      let middle = before + (after - before) / 2
      if offset(middle) == later { after = middle } else { before = middle }
    }
    return after
  }

  /// The local clock's offset from UTC at an instant, in seconds, as the C library has it
  /// from `TZ` or the system's zone: `32400` in Seoul, `-14400` in New York in summer.
  ///
  /// - Parameter instant: Seconds since 1970.
  static func localOffset(at instant: Int64) -> Int {
    _ = zoneRead
    var time = time_t(clamping: instant)
    var fields = tm()
    guard localtime_r(&time, &fields) != nil else { return 0 }
    return fields.tm_gmtoff
  }

  /// The local clock's offset from UTC at a date, its fraction of a second dropped.
  static func localOffset(at date: Date) -> Int {
    localOffset(at: Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  /// The C library's zone, read once before the first local time.
  private static let zoneRead: Void = tzset()

  /// How a time is written.
  enum Style {
    /// `2026-11-25`.
    case date
    /// `2026-11-25 09:00`.
    case minute
    /// `2026-11-25 09:00:00+09:00`, the offset always as hours and minutes.
    case second
    /// `2026-11-25T09:00:00+09:00`, ISO 8601, the offset always as hours and minutes.
    case iso
    /// `2026-11-25T00:00:00Z`, ISO 8601 in UTC.
    case isoUTC
  }

  /// An instant as a clock `offset` seconds ahead of UTC shows it, to the second, its
  /// fraction dropped.
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - offset: The clock's offset from UTC, in seconds; ignored for ``Style/isoUTC``.
  ///   - style: How to write it.
  static func text(_ date: Date, offset: Int, style: Style) -> String {
    let offset = style == .isoUTC ? 0 : offset
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset)
    let days = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
    let secondOfDay = Int(seconds - Int64(days) * 86400)
    let (year, month, day) = civilDate(daysSince1970: days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
    let dateText = "\(yearText)-\(two(month))-\(two(day))"
    let (hour, minute, second) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    let clock = "\(two(hour)):\(two(minute))"
    let zone = "\(offset < 0 ? "-" : "+")\(two(abs(offset) / 3600)):\(two(abs(offset) / 60 % 60))"
    switch style {
    case .date: return dateText
    case .minute: return "\(dateText) \(clock)"
    case .second: return "\(dateText) \(clock):\(two(second))\(zone)"
    case .iso: return "\(dateText)T\(clock):\(two(second))\(zone)"
    case .isoUTC: return "\(dateText)T\(clock):\(two(second))Z"
    }
  }

  /// The date of the proleptic Gregorian calendar some days after 1970-01-01: the inverse
  /// of ``daysSince1970(year:month:day:)``.
  static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
  static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Reads ASCII text a piece at a time.
  private struct Scanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    /// Skips `character` when it comes next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }

    /// Exactly `count` ASCII digits, as a number.
    mutating func number(_ count: Int) -> Int? {
      guard index + count <= bytes.count,
        bytes[index..<index + count].allSatisfy(TimeText.isDigit)
      else { return nil }
      let value = bytes[index..<index + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      index += count
      return value
    }

    /// One or more ASCII digits, as written.
    mutating func digits() -> String? {
      let start = index
      while index < bytes.count, TimeText.isDigit(bytes[index]) { index += 1 }
      return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }
  }
}
