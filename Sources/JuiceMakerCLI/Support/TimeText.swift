import Foundation

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
  ///   - timeZone: The zone of local times.
  /// - Returns: The date.
  /// - Throws: `CLIError.invalidTime` naming the text when it is not a time;
  ///   `.timeOutOfRange` when it is one outside the range.
  static func date(
    from text: String, for option: String, now: Date = Date(), timeZone: TimeZone = .current
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
      instant = localInstant(wall, in: timeZone)
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
  static func localInstant(_ wall: Int64, in zone: TimeZone) -> Int64 {
    func offset(_ instant: Int64) -> Int64 {
      Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }
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
