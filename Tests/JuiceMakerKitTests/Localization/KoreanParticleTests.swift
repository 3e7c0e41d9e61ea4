import JuiceMakerKit
import Testing

struct KoreanParticleTests {
  /// A catalog with one message per particle, each after the name in argument 1.
  private static let json = """
    {"sourceLanguage": "en", "strings": {
      "subject": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@(이)가 있어요"}}}},
      "subject.alt": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@이(가) 있어요"}}}},
      "subject.rev": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@가(이) 있어요"}}}},
      "topic": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@은(는) 맛있어요"}}}},
      "object": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@을(를) 넣을까요?"}}}},
      "conjunction": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@과(와) 우유"}}}},
      "direction": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$@(으)로 만들어요"}}}},
      "count": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "%1$lld(으)로 바꿀까요? %1$lld(이)가 좋아요"}}}},
      "literal": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "사과(이)가 수박(이)랑 딸기(이)나"}}}},
      "quoted": {"localizations": {"ko": {"stringUnit": {"state": "translated", "value": "'%1$@'(을)를 뺐어요"}}}}
    }}
    """

  private func korean() throws -> Localizer {
    try LocalizationFixtures.catalog(json: Self.json).localizer(for: "ko")
  }

  @Test(arguments: [
    ("딸기", "딸기가 있어요"), ("파인애플", "파인애플이 있어요"), ("수박", "수박이 있어요"),
    ("키위", "키위가 있어요"), ("망고", "망고가 있어요"), ("코코넛", "코코넛이 있어요"),
  ])
  func subjectParticleFollowsTheFinalConsonant(name: String, expected: String) throws {
    let localizer = try korean()
    #expect(localizer.string("subject", .string(name)) == expected)
    #expect(localizer.string("subject.alt", .string(name)) == expected)
    #expect(localizer.string("subject.rev", .string(name)) == expected)
  }

  @Test(arguments: [
    ("topic", "키위", "키위는 맛있어요"), ("topic", "수박", "수박은 맛있어요"),
    ("object", "망고", "망고를 넣을까요?"), ("object", "수박", "수박을 넣을까요?"),
    ("conjunction", "딸기", "딸기와 우유"), ("conjunction", "수박", "수박과 우유"),
    ("direction", "딸기", "딸기로 만들어요"), ("direction", "수박", "수박으로 만들어요"),
    ("direction", "파인애플", "파인애플로 만들어요"), ("direction", "귤", "귤로 만들어요"),
  ])
  func particlesFollowTheFinalConsonant(key: String, name: String, expected: String) throws {
    #expect(try korean().string(key, .string(name)) == expected)
  }

  @Test(arguments: [
    (0, "0으로 바꿀까요? 0이 좋아요"), (1, "1로 바꿀까요? 1이 좋아요"), (2, "2로 바꿀까요? 2가 좋아요"),
    (3, "3으로 바꿀까요? 3이 좋아요"), (6, "6으로 바꿀까요? 6이 좋아요"), (7, "7로 바꿀까요? 7이 좋아요"),
    (8, "8로 바꿀까요? 8이 좋아요"), (9, "9로 바꿀까요? 9가 좋아요"), (10, "10으로 바꿀까요? 10이 좋아요"),
    (25, "25로 바꿀까요? 25가 좋아요"), (100, "100으로 바꿀까요? 100이 좋아요"),
  ])
  func numbersReadInKoreanChooseTheParticle(count: Int, expected: String) throws {
    #expect(try korean().string("count", .int(count)) == expected)
  }

  @Test func particleAfterLiteralTextFollowsThatText() throws {
    #expect(try korean().string("literal") == "사과가 수박이랑 딸기나")
  }

  @Test func closingQuotesAreSkipped() throws {
    #expect(try korean().string("quoted", "수박") == "'수박'을 뺐어요")
  }

  @Test(arguments: [
    ("subject", "N", "N이 있어요"), ("subject", "n", "n이 있어요"), ("subject", "2", "2가 있어요"),
    ("subject", "3", "3이 있어요"), ("direction", "L", "L로 만들어요"),
    ("direction", "R", "R로 만들어요"), ("direction", "M", "M으로 만들어요"),
    ("subject", "A", "A가 있어요"), ("subject", "F", "F가 있어요"), ("topic", "X", "X는 맛있어요"),
    ("subject", "URL", "URL이 있어요"), ("direction", "URL", "URL로 만들어요"),
    ("subject", "API", "API가 있어요"), ("object", "JSON", "JSON을 넣을까요?"),
    ("subject", "비타민C", "비타민C가 있어요"), ("subject", "3D", "3D가 있어요"),
    ("subject", "Ｎ", "Ｎ이 있어요"), ("subject", "２", "２가 있어요"),
    ("quoted", "n", "'n'을 뺐어요"), ("quoted", "L", "'L'을 뺐어요"),
  ])
  func latinLettersAndDigitsReadAsKoreanNamesThem(key: String, text: String, expected: String)
    throws
  {
    #expect(try korean().string(key, .string(text)) == expected)
  }

  @Test(arguments: [
    ("“%1$@”(이)라는 명령은 없어요.", "n", "“n”이라는 명령은 없어요."),
    ("“%1$@”(이)라는 명령은 없어요.", "x", "“x”라는 명령은 없어요."),
    ("%2$@ 명령에 %1$@(이)가 필요해요.", "N", "stock add 명령에 N이 필요해요."),
    ("(%1$@)(으)로 바꿔요", "L", "(L)로 바꿔요"), ("《%1$@》(은)는", "M", "《M》은"),
    ("「%1$@」(을)를", "7", "「7」을"),
  ])
  func particlesLookThroughQuotesAndBracketsToTheWordInside(
    value: String, text: String, expected: String
  ) throws {
    let catalog = try LocalizationFixtures.catalog(values: ["k": ["ko": value]])
    #expect(catalog.localizer(for: "ko").string("k", .string(text), "stock add") == expected)
  }

  @Test func latinNameKeepsTheReadableNotation() throws {
    let localizer = try korean()
    #expect(localizer.string("subject", "kiwi") == "kiwi(이)가 있어요")
    #expect(localizer.string("subject.alt", "kiwi") == "kiwi이(가) 있어요")
    #expect(localizer.string("direction", "") == "(으)로 만들어요")
    // A word in lower or mixed case is read by its pronunciation, not its letters.
    #expect(localizer.string("subject", "stock") == "stock(이)가 있어요")
    #expect(localizer.string("subject", "iPhone") == "iPhone(이)가 있어요")
    #expect(localizer.string("topic", "α") == "α은(는) 맛있어요")
  }

  @Test(arguments: [
    ("%@(이)가", "수박", "수박이"),
    ("(으)로%@", "딸기", "(으)로딸기"),
    ("100%%(이)가 %@(이)가", "키위", "100%(이)가 키위가"),
    ("수박%%(은)는", "", "수박%(은)는"),
    ("%%수박(은)는", "", "%수박은"),
    ("(이)가(을)를", "", "(이)가를"),
    ("딸기(이)가(을)를", "", "딸기가를"),
    ("이(가)", "", "이(가)"),
    ("(이", "", "(이"),
    ("수박이(", "", "수박이("),
    ("😀 수박(이)랑 %@(와)과", "키위", "😀 수박이랑 키위(와)과"),
  ])
  func notationsAreFoundWhereverTheyAreWritten(
    value: String, argument: String, expected: String
  ) throws {
    let json = """
      {"sourceLanguage": "ko", "strings": {"k": {"localizations": {"ko": {"stringUnit": \
      {"state": "translated", "value": "\(value)"}}}}}}
      """
    let korean = try LocalizationFixtures.catalog(json: json).localizer(for: "ko")
    #expect(korean.string("k", .string(argument)) == expected)
  }

  @Test func packFruitReadsRightWithoutCodeChanges() throws {
    let catalog = try StringCatalog(directory: LocalizationFixtures.url("Pack"))
    let korean = catalog.localizer(for: "ko")
    let watermelon = korean.string("fruit.watermelon")
    #expect(
      korean.string(LocalizationKey.stockNotEnough, .string(watermelon), 1, 2)
        == "수박이 1개뿐이라 2개를 뺄 수 없어요.")
  }

  @Test(arguments: [
    (KoreanParticle.subject, "딸기", "가"), (.subject, "수박", "이"), (.topic, "키위", "는"),
    (.object, "망고", "를"), (.object, "수박", "을"), (.conjunction, "딸기", "와"),
    (.direction, "파인애플", "로"), (.direction, "수박", "으로"), (.alternative, "수박", "이나"),
    (.companion, "키위", "랑"), (.subject, "10000", "이"), (.subject, "1000000000000", "가"),
    (.copula, "수박", "이라"), (.copula, "딸기", "라"), (.copula, "“수박”", "이라"),
  ])
  func formAfterTextChoosesTheForm(particle: KoreanParticle, text: String, form: String) {
    #expect(particle.form(after: text) == form)
  }

  @Test(arguments: ["kiwi", "", "!", "ㅋ", "漢"])
  func formAfterUnreadableTextIsNil(text: String) {
    #expect(KoreanParticle.subject.form(after: text) == nil)
  }
}
