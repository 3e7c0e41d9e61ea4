/// Normalizes language tags and POSIX locale names to the BCP 47 spelling catalogs use.
package enum LanguageTag {
  /// Normalizes a language tag or POSIX locale name.
  ///
  /// The encoding (`.UTF-8`) and modifier (`@euro`) of a locale name are dropped, `_` becomes
  /// `-`, the language is lowercased, a four-letter script is capitalized, and a region is
  /// uppercased:
  ///
  /// ```swift
  /// LanguageTag.normalized("ko_KR.UTF-8")  // "ko-KR"
  /// LanguageTag.normalized("zh_hans_cn")   // "zh-Hans-CN"
  /// LanguageTag.normalized("C.UTF-8")      // nil
  /// ```
  ///
  /// - Parameter tag: A tag such as `ko`, `ko-KR`, `ko_KR.UTF-8`, `C`, or `POSIX`.
  /// - Returns: The normalized tag, or `nil` for no preference: empty, `C`, or `POSIX`.
  package static func normalized(_ tag: String) -> String? {
    let trimmed = tag.drop { $0 == " " || $0 == "\t" }
    let base = trimmed.prefix { $0 != "." && $0 != "@" && $0 != " " && $0 != "\t" }
    let upper = base.uppercased()
    guard !base.isEmpty, upper != "C", upper != "POSIX" else { return nil }
    let subtags = base.split(omittingEmptySubsequences: true) { $0 == "_" || $0 == "-" }
    guard let language = subtags.first else { return nil }
    // Built by appending rather than with `joined(separator:)`, whose generic code costs more
    // than the rest of this function the first time a process calls it.
    var result = language.lowercased()
    for subtag in subtags.dropFirst() {
      result += "-"
      if subtag.count == 4, subtag.allSatisfy(\.isLetter) {
        result += subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
      } else if subtag.count == 2 || (subtag.count == 3 && subtag.allSatisfy(\.isNumber)) {
        result += subtag.uppercased()
      } else {
        result += subtag.lowercased()
      }
    }
    return result
  }

  /// The tags to try for a normalized tag, most specific first: `zh-Hant-TW`, `zh-Hant`, `zh`.
  ///
  /// - Parameter tag: A normalized tag.
  /// - Returns: The tag and each of its prefixes at subtag boundaries.
  static func fallbacks(for tag: String) -> [String] {
    var subtags = tag.split(separator: "-")
    var result: [String] = []
    while !subtags.isEmpty {
      result.append(subtags.joined(separator: "-"))
      subtags.removeLast()
    }
    return result
  }
}
