import Foundation
import JuiceMakerKit
import Testing

struct ShippedCatalogTests {
  @Test(arguments: LocalizationFixtures.shippedFruit)
  func fruitNamesReadInBothLanguages(id: String, one: String, other: String, korean: String)
    throws
  {
    let catalog = try LocalizationFixtures.shippedCatalog()
    let en = catalog.localizer(for: "en")
    let ko = catalog.localizer(for: "ko")
    let key = LocalizationKey.fruit(id)
    #expect(en.string(key, count: 1) == one)
    #expect(en.string(key, count: 2) == other)
    #expect(en.string(key) == other)
    #expect(ko.string(key, count: 1) == korean)
    #expect(ko.string(key, count: 6) == korean)
  }

  @Test(arguments: LocalizationFixtures.shippedJuice)
  func juiceNamesReadInBothLanguages(id: String, english: String, korean: String) throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    #expect(catalog.localizer(for: "en").string(LocalizationKey.juice(id)) == english)
    #expect(catalog.localizer(for: "ko").string(LocalizationKey.juice(id)) == korean)
  }

  @Test(arguments: [
    (LocalizationKey.orderOutOfStock, "Not enough fruit. Edit the stock?", "재료가 모자라요. 재고를 수정할까요?"),
    (LocalizationKey.orderScreenTitle, "Fresh juice, made just for you!", "맛있는 쥬스를 만들어 드려요!"),
    (LocalizationKey.stockScreenTitle, "Edit Stock", "재고 추가"),
    (LocalizationKey.closeButton, "Close", "닫기"),
    (LocalizationKey.editStockButton, "Edit Stock", "재고수정"),
    (LocalizationKey.yes, "Yes", "예"),
    (LocalizationKey.no, "No", "아니오"),
    (LocalizationKey.listSeparator, ", ", ", "),
  ])
  func messagesWithoutArgumentsReadInBothLanguages(key: String, english: String, korean: String)
    throws
  {
    let catalog = try LocalizationFixtures.shippedCatalog()
    #expect(catalog.localizer(for: "en").string(key) == english)
    #expect(catalog.localizer(for: "ko").string(key) == korean)
  }

  @Test func orderMadeNamesTheJuice() throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    let english = catalog.localizer(for: "en")
    let korean = catalog.localizer(for: "ko")
    #expect(
      english.string(LocalizationKey.orderMade, .string(english.string("juice.kiwi-juice")))
        == "Here is your Kiwi Juice. Enjoy!")
    #expect(
      korean.string(
        LocalizationKey.orderMade, .string(korean.string("juice.strawberry-banana-juice")))
        == "딸바쥬스 나왔습니다! 맛있게 드세요!")
  }

  @Test(arguments: [
    (1, "Here is 1 cup of Mango Kiwi Juice. Enjoy!", "망키쥬스 1잔 나왔습니다! 맛있게 드세요!"),
    (3, "Here are 3 cups of Mango Kiwi Juice. Enjoy!", "망키쥬스 3잔 나왔습니다! 맛있게 드세요!"),
  ])
  func orderMadeManyCountsCups(count: Int, english: String, korean: String) throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    let en = catalog.localizer(for: "en")
    let ko = catalog.localizer(for: "ko")
    #expect(en.string(LocalizationKey.orderMadeMany, "Mango Kiwi Juice", .int(count)) == english)
    #expect(ko.string(LocalizationKey.orderMadeMany, "망키쥬스", .int(count)) == korean)
  }

  @Test func shortagesListEveryMissingFruit() throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    for (language, expected) in [
      ("en", "Missing: 1 more kiwi, 6 more strawberries."),
      ("ko", "모자란 재료: 키위 1개, 딸기 6개"),
    ] {
      let localizer = catalog.localizer(for: language)
      let items = [("kiwi", 1), ("strawberry", 6)].map { id, missing in
        localizer.string(
          LocalizationKey.orderShortage,
          .string(localizer.string(LocalizationKey.fruit(id), count: missing)), .int(missing))
      }
      #expect(
        localizer.string(LocalizationKey.orderShortages, .string(localizer.list(items))) == expected
      )
    }
  }

  @Test func stockNotEnoughUsesTheNameForTheAvailableCount() throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    let english = catalog.localizer(for: "en")
    let korean = catalog.localizer(for: "ko")
    #expect(
      english.string(
        LocalizationKey.stockNotEnough, .string(english.string("fruit.mango", count: 1)), 1, 3)
        == "Only 1 mango in stock, so 3 can't be removed.")
    #expect(
      korean.string(LocalizationKey.stockNotEnough, "망고", 1, 3)
        == "망고가 1개뿐이라 3개를 뺄 수 없어요.")
  }

  @Test func everyKeyHasTranslatedEnglishAndKorean() throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    #expect(catalog.languages == ["en", "ko"])
    #expect(catalog.files.contains("Localizable.xcstrings"))
    for key in catalog.keys {
      for language in ["en", "ko"] {
        let text = catalog.localizer(for: language).rendering(key)
        #expect(text.language == language, "\(key) has no \(language) value")
        #expect(!text.value.isEmpty)
      }
    }
  }

  @Test func shippedCatalogPassesValidation() throws {
    let issues = StringCatalog.validationIssues(
      directory: LocalizationFixtures.shippedDirectory,
      fruitIDs: LocalizationFixtures.shippedFruit.map(\.id),
      juiceIDs: LocalizationFixtures.shippedJuice.map(\.id),
      requiredKeys: LocalizationKey.messages)
    #expect(issues == [])
  }

  @Test func everyKeyHasAComment() throws {
    let catalog = try LocalizationFixtures.shippedCatalog()
    for key in catalog.keys {
      #expect(catalog.comment(forKey: key)?.isEmpty == false, "\(key) has no comment")
    }
  }

  @Test func catalogFileKeepsXcodeLayout() throws {
    let url = LocalizationFixtures.shippedDirectory.appendingPathComponent("Localizable.xcstrings")
    let text = try String(contentsOf: url, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let keyLines = lines.filter { $0.hasPrefix("    \"") && $0.hasSuffix("\" : {") }
    let keys = keyLines.map { $0.dropFirst(5).dropLast(5) }
    let catalog = try LocalizationFixtures.shippedCatalog()
    let definedHere = catalog.keys.filter {
      catalog.file(definingKey: $0) == "Localizable.xcstrings"
    }
    #expect(keys.map(String.init) == definedHere)
    for line in lines {
      let indent = line.prefix { $0 == " " }.count
      #expect(indent % 2 == 0, "odd indentation: \(line)")
      #expect(!line.contains("\t"))
    }
  }
}
