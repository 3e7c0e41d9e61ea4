import Testing

@testable import JuiceMakerCLI

/// `NameIndex.normalized` folds the names most menus have scalar by scalar; it must fold
/// every name as the general rule does.
struct NameFoldingTests {
  static let names = [
    "Strawberry Banana Juice", "  kiwi\tJUICE\n", "딸바쥬스", "딸기 바나나 쥬스", "망고키위쥬스",
    "Juice number 4321", "쥬스 4321번", "berries fruit-00001", "ÉCLAIR", "e\u{301}clair",
    "\u{1100}\u{1161}", "Ǆ", "ＫＩＷＩ", "kiwi\u{00A0}juice", "kiwi\u{2003}juice", "İstanbul",
    "", " ", "a-b_c.d", "Σίσυφος", "ß", "キウイ", "\u{7F}\u{1F}",
  ]

  @Test(arguments: names)
  func foldingScalarByScalarMatchesTheGeneralRule(name: String) {
    #expect(NameIndex.normalized(name) == NameIndex.normalizedGenerally(name))
  }
}
