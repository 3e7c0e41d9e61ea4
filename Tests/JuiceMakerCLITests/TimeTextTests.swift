import Foundation
import Testing

@testable import JuiceMakerCLI

/// The times commands write, on the clock of a fixed offset, checked against Foundation's
/// own formatters of the same offset.
struct TimeTextTests {
  /// Times since 1583, which Foundation's formatters also count in the Gregorian calendar;
  /// before its start in October 1582 they count in the Julian calendar, and commands in
  /// the proleptic Gregorian, as ISO 8601 does and as they read times.
  @Test(arguments: [
    -12_212_553_600, -86_401, -1, 0, 59, 951_782_400, 1_780_000_000, 1_795_000_123,
    253_402_300_799,
  ])
  func eachStyleWritesTheClockOfItsOffset(seconds: Int) throws {
    let date = Date(timeIntervalSince1970: Double(seconds) + 0.75)
    for offset in [0, 32_400, -14_400, 19_800, -34_200] {
      let zone = try #require(TimeZone(secondsFromGMT: offset))
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = zone
      for (style, format) in [
        (TimeText.Style.date, "yyyy-MM-dd"), (.minute, "yyyy-MM-dd HH:mm"),
        (.second, "yyyy-MM-dd HH:mm:ssxxx"), (.iso, "yyyy-MM-dd'T'HH:mm:ssxxx"),
      ] {
        formatter.dateFormat = format
        #expect(
          TimeText.text(date, offset: offset, style: style) == formatter.string(from: date),
          "\(seconds) at \(offset) as \(format)")
      }
    }
    #expect(
      TimeText.text(date, offset: 32_400, style: .isoUTC)
        == ISO8601DateFormatter().string(from: date))
  }

  /// Before the Gregorian calendar began, times are written in the proleptic Gregorian
  /// calendar, from the first instant commands read.
  @Test(arguments: [
    (-62_135_596_800, TimeText.earliest), (-30_000_000_000, "1019-05-04T18:40:00Z"),
    (-12_219_292_801, "1582-10-14T23:59:59Z"), (253_402_300_799, TimeText.latest),
  ])
  func utcIsWrittenInTheProlepticGregorianCalendar(seconds: Int, text: String) {
    let date = Date(timeIntervalSince1970: Double(seconds))
    #expect(TimeText.text(date, offset: 0, style: .isoUTC) == text)
  }

  @Test func aCivilDateIsTheInverseOfItsDayNumber() {
    for days in stride(from: -719_162, through: 2_932_896, by: 997) {
      let (year, month, day) = TimeText.civilDate(daysSince1970: days)
      #expect(TimeText.daysSince1970(year: year, month: month, day: day) == days, "\(days)")
    }
  }
}
