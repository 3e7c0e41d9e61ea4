import JuiceMakerKit

/// The words that answer a yes-or-no question, from the string catalog: the buttons'
/// words (`answer.yes`, `answer.no`) and the comma-separated `shop.answer.yes` and
/// `shop.answer.no`, in every language of the catalog, so a Korean 네 works in an
/// English shop too.
struct AnswerWords: Hashable, Sendable {
  /// The yes words, folded for matching.
  let yes: Set<String>
  /// The no words, folded for matching.
  let no: Set<String>

  /// Gathers the words of every language of the catalog.
  init(strings: StringCatalog) {
    yes = Self.words(strings, LocalizationKey.yes, "shop.answer.yes")
    no = Self.words(strings, LocalizationKey.no, "shop.answer.no")
  }

  /// Whether the answer is yes (`true`), no (`false`) or neither (`nil`). Case and
  /// white space do not matter.
  func answer(_ text: String) -> Bool? {
    let folded = NameIndex.normalized(text)
    if yes.contains(folded) { return true }
    if no.contains(folded) { return false }
    return nil
  }

  private static func words(_ strings: StringCatalog, _ keys: String...) -> Set<String> {
    var words: Set<String> = []
    for language in strings.languages {
      let localizer = strings.localizer(for: language)
      for key in keys {
        for word in localizer.string(key).split(separator: ",") {
          words.insert(NameIndex.normalized(String(word)))
        }
      }
    }
    words.remove("")
    return words
  }
}
