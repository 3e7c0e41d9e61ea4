/// Renders the catalog's strings in one language, falling back per key.
///
/// Get one from ``StringCatalog/localizer(for:onWarning:)``. For each key it tries the requested
/// language, then its less specific forms, then the source language of the key's file, then
/// shows the key itself: `ko-KR` → `ko` → `en` → `order.made`. Without a requested language (or
/// with one the catalog lacks) it tries the catalog's ``StringCatalog/sourceLanguage`` first. A
/// key marked `shouldTranslate: false` shows its source language's value in every language. An
/// empty value counts as missing, so a string is never empty.
///
/// ```swift
/// let english = catalog.localizer(for: "en")
/// english.string("order.shortage", .string(english.string("fruit.kiwi", count: 1)), 1)
/// // "1 more kiwi"
/// let korean = catalog.localizer(for: "ko_KR.UTF-8")
/// korean.string("stock.notEnough", "딸기", 2, 5)
/// // "딸기가 2개뿐이라 5개를 뺄 수 없어요."
/// ```
public struct Localizer: Sendable {
  private let storage: StringCatalog.Storage
  /// Catalog language indices to try, most preferred first; each key's own source language
  /// comes after them.
  private let chain: [Int]
  private let onWarning: (@Sendable (LocalizationWarning) -> Void)?

  /// The requested language, normalized, or `nil` when none was requested.
  public let requestedLanguage: String?

  /// The catalog language tried first: the best match for the requested language, or the source
  /// language.
  public var language: String { storage.languages[chain[0]] }

  /// The one warning issued when the catalog has no strings for the requested language (and so
  /// the source language is used), or `nil`.
  ///
  /// It is reported here only, not to the warning handler, so that it is reported exactly once.
  public let fallbackWarning: LocalizationWarning?

  init(
    storage: StringCatalog.Storage, requestedLanguage: String?,
    onWarning: (@Sendable (LocalizationWarning) -> Void)?
  ) {
    self.storage = storage
    self.requestedLanguage = requestedLanguage
    self.onWarning = onWarning
    var chain: [Int] = []
    for tag in requestedLanguage.map(LanguageTag.fallbacks(for:)) ?? [] {
      if let index = storage.languageIndices[tag], !chain.contains(index) {
        chain.append(index)
      }
    }
    if let requestedLanguage, chain.isEmpty {
      fallbackWarning = LocalizationWarning(
        key: nil, language: requestedLanguage,
        problem: .unsupportedLanguage(
          requested: requestedLanguage, fallback: storage.sourceLanguage))
    } else {
      fallbackWarning = nil
    }
    if chain.isEmpty {
      chain.append(storage.languageIndices[storage.sourceLanguage] ?? 0)
    }
    self.chain = chain
  }

  /// Renders a key with arguments.
  ///
  /// Warnings go to the localizer's warning handler, if it has one.
  ///
  /// ```swift
  /// english.string("order.made", "Kiwi Juice")  // "Here is your Kiwi Juice. Enjoy!"
  /// english.string("fruit.mango", count: 2)      // "mangoes"
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key, such as `order.made`.
  ///   - arguments: The arguments for the value's specifiers, in argument-number order.
  ///   - count: The count that chooses a plural branch of the value itself; when `nil`, the first
  ///     number argument does (a `Double` with a fraction chooses `other`), and without one the
  ///     `other` branch is used. Without arguments the value is shown as written.
  /// - Returns: The text, or the key itself when no language has a value.
  /// - Complexity: O(*n*) in the length of the output.
  public func string(_ key: String, _ arguments: LocalizedArgument..., count: Int? = nil) -> String
  {
    string(key, arguments: arguments, count: count)
  }

  /// Renders a key with an array of arguments.
  ///
  /// - Parameters:
  ///   - key: The key, such as `order.made`.
  ///   - arguments: The arguments for the value's specifiers, in argument-number order.
  ///   - count: The count that chooses a plural branch; see ``string(_:_:count:)``.
  /// - Returns: The text, or the key itself when no language has a value.
  /// - Complexity: O(*n*) in the length of the output.
  public func string(_ key: String, arguments: [LocalizedArgument], count: Int? = nil) -> String {
    let text = rendering(key, arguments: arguments, count: count)
    if let onWarning {
      text.warnings.forEach(onWarning)
    }
    return text.value
  }

  /// Renders a key and returns the text with the warnings rendering recorded.
  ///
  /// - Parameters:
  ///   - key: The key, such as `order.shortage`.
  ///   - arguments: The arguments for the value's specifiers, in argument-number order.
  ///   - count: The count that chooses a plural branch; see ``string(_:_:count:)``.
  /// - Returns: The text, the language it came from, and its warnings. The handler is not called.
  /// - Complexity: O(*n*) in the length of the output.
  public func rendering(
    _ key: String, arguments: [LocalizedArgument] = [], count: Int? = nil
  ) -> LocalizedText {
    if let (position, entry) = storage.entry(forKey: key) {
      let selector = count.map(PluralOperands.init) ?? arguments.firstPluralCount
      let sourceIndex = entry.sourceIndex
      // The chain holds prefixes of one tag, so the source language, when in it, is last.
      if entry.shouldTranslate {
        for index in chain where index != sourceIndex {
          if let text = render(position, key, index, selector, arguments) {
            return text
          }
        }
      }
      if let text = render(position, key, sourceIndex, selector, arguments) {
        return text
      }
    }
    let warning = LocalizationWarning(key: key, language: language, problem: .missingKey)
    return LocalizedText(value: key, language: nil, warnings: [warning])
  }

  /// Renders the value of the key at `position` in one language, or returns `nil` when it
  /// has none for the count.
  private func render(
    _ position: Int, _ key: String, _ index: Int, _ selector: PluralOperands?,
    _ arguments: [LocalizedArgument]
  ) -> LocalizedText? {
    guard let localization = storage.value(at: position, language: index),
      let value = localization.value(for: selector)
    else { return nil }
    let language = storage.languages[index]
    // As Apple's runtime does, a value rendered without arguments is shown as written: no
    // specifier is read, and `50%` or `100%%` stay as they are. Korean particle notations
    // still follow the text before them.
    guard !arguments.isEmpty else {
      guard let segments = value.template.verbatimSegments else {
        return LocalizedText(value: value.text, language: language)
      }
      var renderer = MessageRenderer(
        key: key, language: language, rule: localization.rule, arguments: [])
      return LocalizedText(value: renderer.render(verbatim: segments), language: language)
    }
    var renderer = MessageRenderer(
      key: key, language: language, rule: localization.rule, arguments: arguments)
    let text = renderer.render(value.template)
    return LocalizedText(value: text, language: language, warnings: renderer.warnings)
  }

  /// Joins items with the catalog's `list.separator`, such as `, `, or `, ` when it has none.
  ///
  /// ```swift
  /// english.list(["1 more kiwi", "6 more strawberries"])  // "1 more kiwi, 6 more strawberries"
  /// ```
  ///
  /// - Parameter items: The items, already rendered.
  /// - Returns: The joined list.
  /// - Complexity: O(*n*) in the total length of the items.
  public func list(_ items: [String]) -> String {
    let separator = rendering(Self.listSeparatorKey)
    return items.joined(separator: separator.language == nil ? ", " : separator.value)
  }

  /// The key of the text between items of a ``list(_:)``: `list.separator`.
  package static let listSeparatorKey = "list.separator"
}

// MARK: - Choosing the language

extension Localizer {
  /// The language the user prefers, from the app's explicit choices or the environment.
  ///
  /// The first of these that is set, non-empty, and not `C` or `POSIX` wins, normalized with
  /// ``LanguageTag/normalized(_:)``: each of `choices` in order (such as a `--lang` option,
  /// then the app's own environment variable), `LC_ALL`, `LC_MESSAGES`, `LANG`.
  ///
  /// ```swift
  /// Localizer.preferredLanguage(choices: [], environment: ["LANG": "ko_KR.UTF-8"])  // "ko-KR"
  /// Localizer.preferredLanguage(choices: [], environment: ["LANG": "C"])            // nil
  /// ```
  ///
  /// - Parameters:
  ///   - choices: The app's explicit choices, most preferred first; `nil` for one not made.
  ///   - environment: The process environment.
  /// - Returns: A normalized tag, or `nil` for no preference (use the catalog's source language).
  package static func preferredLanguage(
    choices: [String?], environment: [String: String]
  ) -> String? {
    let candidates =
      choices + [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
    for case let candidate? in candidates {
      if let tag = LanguageTag.normalized(candidate) {
        return tag
      }
    }
    return nil
  }
}

// MARK: - Creating localizers

extension StringCatalog {
  /// A localizer for a language.
  ///
  /// - Parameters:
  ///   - language: A language tag or locale name (`ko`, `ko-KR`, `ko_KR.UTF-8`), or `nil`, `C`, or
  ///     `POSIX` for the source language. A language the catalog lacks falls back to the source
  ///     language with one ``Localizer/fallbackWarning``.
  ///   - onWarning: Called with each warning ``Localizer/string(_:_:count:)`` records, on the
  ///     caller's thread.
  /// - Returns: The localizer.
  /// - Complexity: O(*k*) for a tag of *k* subtags.
  public func localizer(
    for language: String?, onWarning: (@Sendable (LocalizationWarning) -> Void)? = nil
  ) -> Localizer {
    Localizer(
      storage: storage, requestedLanguage: language.flatMap(LanguageTag.normalized),
      onWarning: onWarning)
  }
}

extension [LocalizedArgument] {
  /// The first number argument, which chooses the plural branch of a value that varies by
  /// plural.
  fileprivate var firstPluralCount: PluralOperands? {
    for argument in self {
      if let count = argument.pluralOperand {
        return count
      }
    }
    return nil
  }
}
