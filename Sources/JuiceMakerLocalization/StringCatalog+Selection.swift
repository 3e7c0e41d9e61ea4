extension StringCatalog {
  /// Which values a load builds: every one, or only those one localizer can show.
  ///
  /// Building every language of every key is most of what a short command costs at start-up;
  /// a command that shows one language loads that one. A language left out still counts in
  /// ``StringCatalog/languages``, so a localizer falls back and warns exactly as it does over
  /// a full load. Its values are checked as JSON, but not as catalog values, and no file is
  /// refused for giving a key a value in it that another file gives too: `validate` loads
  /// ``everything``.
  ///
  /// ```swift
  /// let korean = try StringCatalog(sources: files, selection: .language("ko_KR.UTF-8"))
  /// korean.languages  // ["en", "ko"], though only `ko-KR`, `ko` and `en` values are built
  /// ```
  public struct Selection: Sendable, Equatable {
    /// The normalized languages whose values are built, besides each file's source language,
    /// which always is; `nil` for every language.
    public var languages: Set<String>?
    /// The keys loaded; `nil` for every key.
    public var keys: Set<String>?
    /// The prefixes of keys not loaded, such as `juice.` for a program that shows no juice's
    /// name.
    public var omittedPrefixes: [String]
    /// Keys loaded though an omitted prefix starts them, such as the one juice a program
    /// names.
    public var keptKeys: Set<String>

    /// A selection of languages and keys.
    ///
    /// - Parameters:
    ///   - languages: The normalized languages whose values are built besides each file's
    ///     source language, or `nil` for every language.
    ///   - keys: The keys loaded, or `nil` for every key.
    ///   - omittedPrefixes: The prefixes of keys not loaded.
    ///   - keptKeys: Keys loaded though an omitted prefix starts them.
    public init(
      languages: Set<String>? = nil, keys: Set<String>? = nil, omittedPrefixes: [String] = [],
      keptKeys: Set<String> = []
    ) {
      self.languages = languages
      self.keys = keys
      self.omittedPrefixes = omittedPrefixes
      self.keptKeys = keptKeys
    }

    /// Every language of every key.
    public static let everything = Selection()

    /// What ``StringCatalog/localizer(for:onWarning:)`` for `language` can show: the language
    /// and its less specific forms (`ko-KR`, `ko`), and each file's source language.
    ///
    /// - Parameters:
    ///   - language: A tag or POSIX locale name, as the localizer takes it, or `nil` for the
    ///     source languages alone.
    ///   - keys: The keys loaded, or `nil` for every key.
    ///   - omittedPrefixes: The prefixes of keys not loaded.
    ///   - keptKeys: Keys loaded though an omitted prefix starts them.
    public static func language(
      _ language: String?, keys: Set<String>? = nil, omittedPrefixes: [String] = [],
      keptKeys: Set<String> = []
    ) -> Selection {
      let tags = language.flatMap(LanguageTag.normalized).map(LanguageTag.fallbacks(for:)) ?? []
      return Selection(
        languages: Set(tags), keys: keys, omittedPrefixes: omittedPrefixes, keptKeys: keptKeys)
    }

    /// Whether every value of every key is built.
    var isEverything: Bool { languages == nil && keys == nil && omittedPrefixes.isEmpty }

    /// Whether the key is loaded.
    func includes(key: String) -> Bool {
      includes(keyUTF8: key.utf8)
    }

    /// Whether the key whose UTF-8 this is is loaded: the compiled form's keys are checked
    /// before a `String` is made of them.
    func includes(keyUTF8 key: some Collection<UInt8>) -> Bool {
      if let keys, !keys.contains(String(decoding: key, as: UTF8.self)) { return false }
      return !omittedPrefixes.contains { key.starts(with: $0.utf8) }
        || keptKeys.contains { key.elementsEqual($0.utf8) }
    }

    /// The normalized languages whose values one file builds: the selection's, the source
    /// languages of the files before it, and its own; `nil` for every language.
    ///
    /// - Parameters:
    ///   - sourceLanguages: The normalized source languages of the files loaded before.
    ///   - fileSourceLanguage: The file's source language as written, if it has one.
    func languagesBuilt(sourceLanguages: Set<String>, fileSourceLanguage: String?) -> Set<String>? {
      guard var languages = languages?.union(sourceLanguages) else { return nil }
      if let own = fileSourceLanguage {
        languages.insert(LanguageTag.normalized(own) ?? own)
      }
      return languages
    }

    /// Whether a language, as a file spells it, is one of the languages built.
    static func builds(language: String, in languages: Set<String>) -> Bool {
      languages.contains(LanguageTag.normalized(language) ?? language)
    }
  }
}
