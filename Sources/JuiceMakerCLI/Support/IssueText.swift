import JuiceMakerKit

extension LocalizationIssue {
  /// The issue on one line in the user's language: `오류: [en] fruit.kiwi: 이름이 없어요`.
  ///
  /// Problems without a catalog string of their own are shown as the library spells them.
  func localized(_ texts: Texts) -> String {
    let l = texts.localizer
    let place = [language.map { "[\($0)]" }, key].compactMap { $0 }.joined(separator: " ")
    let branch = { (branch: String?) in branch.map { " (\($0))" } ?? "" }
    let text: String
    switch problem {
    case .missingName: text = l.string("validate.problem.missingName")
    case .missingString: text = l.string("validate.problem.missingString")
    case .emptyValue(let name): text = l.string("validate.problem.emptyValue") + branch(name)
    case .notTranslated(let state, let name):
      text =
        l.string("validate.problem.notTranslated", .string(state ?? "—")) + branch(name)
    case .unusedName: text = l.string("validate.problem.unusedName")
    default: text = message
    }
    return l.string("validate.severity." + severity.rawValue) + ": "
      + (place.isEmpty ? "" : place + ": ") + texts.shown(text)
  }

  /// Every catalog key ``localized(_:)`` uses, for `validate`.
  static let keys = [
    "validate.severity.error", "validate.severity.warning", "validate.problem.missingName",
    "validate.problem.missingString", "validate.problem.emptyValue",
    "validate.problem.notTranslated", "validate.problem.unusedName",
  ]
}
