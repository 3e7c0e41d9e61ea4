import Foundation
import JuiceMakerKit
import Testing

/// The plural reference table, `Fixtures/Localization/PluralReference.tsv`: for each language
/// and category, numbers CLDR's rules give that category.
enum PluralReference {
  /// One line of the table.
  struct Row: Sendable, CustomTestStringConvertible {
    let language: String
    let category: PluralCategory
    let numbers: [String]

    var testDescription: String { "\(language) \(category.rawValue)" }
  }

  /// Every row, in the file's order.
  static func rows() throws -> [Row] {
    let text = try String(
      contentsOf: LocalizationFixtures.url("PluralReference.tsv"), encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
      let fields = line.split(separator: "\t")
      guard fields.count == 3, let category = PluralCategory(rawValue: String(fields[1])) else {
        return nil
      }
      return Row(
        language: String(fields[0]), category: category,
        numbers: fields[2].split(separator: " ").map(String.init))
    }
  }

  /// The operands of a number as the table writes it: a whole number as an `Int`, one with a
  /// fraction as the `Double` whose shortest form it is.
  static func operands(_ number: String) -> PluralOperands? {
    if let whole = Int(number) { return PluralOperands(whole) }
    return Double(number).map { PluralOperands($0) }
  }
}
