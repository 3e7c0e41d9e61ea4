import JuiceMakerCLI
import JuiceMakerKit
import Testing

struct LanguageTagTests {
  @Test(arguments: [
    ("ko", "ko"), ("KO", "ko"), ("ko_KR", "ko-KR"), ("ko_KR.UTF-8", "ko-KR"), ("ko-kr", "ko-KR"),
    ("en_US.UTF-8@posix", "en-US"), ("zh_hans_cn", "zh-Hans-CN"), ("es-419", "es-419"),
  ])
  func normalizesTagsAndLocaleNames(tag: String, expected: String) {
    #expect(LanguageTag.normalized(tag) == expected)
  }

  @Test(arguments: ["", "C", "c", "POSIX", "C.UTF-8", "POSIX.UTF-8", "  "])
  func cAndPOSIXMeanNoPreference(tag: String) {
    #expect(LanguageTag.normalized(tag) == nil)
  }

  @Test(
    arguments: [
      ("ko", ["LANG": "en_US.UTF-8"], "ko"),
      (nil, ["JUICE_MAKER_LANG": "ko_KR", "LC_ALL": "en_US.UTF-8"], "ko-KR"),
      (nil, ["LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "en_US", "LANG": "en_US"], "ko-KR"),
      (nil, ["LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US"], "ko-KR"),
      (nil, ["LANG": "ko_KR.UTF-8"], "ko-KR"),
      (nil, ["LC_ALL": "C", "LANG": "ko_KR.UTF-8"], "ko-KR"),
      (nil, ["LC_ALL": "", "LC_MESSAGES": "POSIX", "LANG": "ko"], "ko"),
      ("", ["JUICE_MAKER_LANG": "ko"], "ko"),
      ("C", ["LANG": "ko_KR.UTF-8"], "ko-KR"),
    ] as [(String?, [String: String], String)])
  func preferredLanguageTakesTheFirstUsefulSource(
    explicit: String?, environment: [String: String], expected: String
  ) {
    #expect(Localizer.preferredLanguage(arguments: explicit, environment: environment) == expected)
  }

  @Test(
    arguments: [
      [:], ["LANG": "C"], ["LC_ALL": "POSIX", "LANG": "C.UTF-8"], ["HOME": "/root"],
    ] as [[String: String]])
  func preferredLanguageIsNilWithoutAPreference(environment: [String: String]) {
    #expect(Localizer.preferredLanguage(arguments: nil, environment: environment) == nil)
  }
}
