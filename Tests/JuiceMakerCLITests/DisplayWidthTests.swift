import Testing

@testable import JuiceMakerCLI

struct DisplayWidthTests {
  @Test(
    arguments: [
      ("kiwi", 4), ("딸바쥬스", 8), ("Ｆｕｌｌ", 8), ("漢字", 4), ("e\u{301}", 1),
      ("\u{1100}\u{1161}\u{11A8}", 2), ("a\u{200B}b", 2), ("🍓", 2), ("👩\u{200D}🍳", 2),
      ("☕", 2), ("·×…", 3), ("", 0),
    ] as [(String, Int)])
  func textTakesItsColumns(text: String, columns: Int) {
    #expect(text.displayWidth == columns)
  }

  @Test func paddingCountsWideCharactersTwice() {
    #expect("딸기".padded(to: 6) == "딸기  ")
    #expect("kiwi".padded(to: 2) == "kiwi")
  }

  @Test(
    arguments: [
      ("Strawberry Banana Juice", 10, "Strawberr…"), ("파인애플쥬스", 7, "파인애…"),
      ("파인애플쥬스", 8, "파인애…"), ("파인애플쥬스", 12, "파인애플쥬스"), ("kiwi", 0, ""),
      ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ] as [(String, Int, String)])
  func truncationEndsInAnEllipsisWithinTheWidth(text: String, width: Int, expected: String) {
    let cut = text.truncated(to: width)
    #expect(cut == expected)
    #expect(cut.displayWidth <= width)
  }

  @Test func fittingPadsOrCutsToExactlyTheWidth() {
    #expect("딸기쥬스".fitted(to: 5).displayWidth == 5)
    #expect("딸기쥬스".fitted(to: 5) == "딸기…")
    #expect("kiwi".fitted(to: 6) == "kiwi  ")
  }

  @Test func wrappingBreaksAtSpacesAndSplitsOnlyLongWords() {
    #expect(
      "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 10개".wrapped(to: 20) == [
        "재료가 모자라요.", "재고를 수정할까요?", "모자란 재료: 딸기", "10개",
      ])
    #expect("abcdefgh".wrapped(to: 3) == ["abc", "def", "gh"])
    for line in "맛있는 쥬스를 만들어 드려요! Fresh juice".wrapped(to: 7) {
      #expect(line.displayWidth <= 7, "\(line)")
    }
  }
}
