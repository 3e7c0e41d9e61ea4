/// Every string of the shop, in every language, loaded from Apple String Catalog files.
///
/// Load the catalogs in `Localization/` once, then ask for a ``Localizer`` per language:
///
/// ```swift
/// let catalog = try StringCatalog(directory: URL(fileURLWithPath: "Localization"))
/// let korean = catalog.localizer(for: "ko")
/// korean.string("order.made", "딸기쥬스")  // "딸기쥬스 나왔습니다! 맛있게 드세요!"
/// ```
///
/// Every value is parsed once at load time into an immutable structure, so a catalog and its
/// localizers are cheap to share between threads and rendering does no parsing.
public struct StringCatalog: Sendable {
  let storage: Storage

  /// The immutable contents, shared by the catalog and its localizers.
  ///
  /// A key's entry, comment and values are found by its position: its value in a language
  /// is `values[position * slotCount + slots[language]]`. A language no key has a value in,
  /// such as one a selection left out, has no slot.
  final class Storage: Sendable {
    let sourceLanguage: String
    let languages: [String]
    let languageIndices: [String: Int]
    /// Each language's place among a key's values, by language index.
    let slots: [Int?]
    /// How many values each key has.
    let slotCount: Int
    /// The position of each key.
    let positions: [String: Int]
    /// Each key's entry, by position.
    let entries: [CatalogEntry]
    /// Each key's translator comment, by position.
    let comments: [String?]
    /// Each key's value in each language, by position and then language.
    let values: [CatalogLocalization?]
    let files: [String]
    let issues: [LocalizationIssue]
    let selection: Selection

    init(
      sourceLanguage: String, languages: [String], slots: [Int?], positions: [String: Int],
      entries: [CatalogEntry], comments: [String?], values: [CatalogLocalization?],
      files: [String], issues: [LocalizationIssue], selection: Selection = .everything
    ) {
      self.sourceLanguage = sourceLanguage
      self.languages = languages
      self.languageIndices = Dictionary(
        languages.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
      self.slots = slots
      self.slotCount = slots.lazy.compactMap { $0 }.count
      self.positions = positions
      self.entries = entries
      self.comments = comments
      self.values = values
      self.files = files
      self.issues = issues
      self.selection = selection
    }

    /// The position and entry of a key, or `nil` when no file defines it.
    func entry(forKey key: String) -> (position: Int, entry: CatalogEntry)? {
      positions[key].map { ($0, entries[$0]) }
    }

    /// The value of the key at `position` in the language at `language`, if it has one.
    func value(at position: Int, language: Int) -> CatalogLocalization? {
      guard let slot = slots[language] else { return nil }
      return values[position * slotCount + slot]
    }
  }

  /// The source language of the first file loaded.
  ///
  /// Each file declares its own source language, and its keys fall back to that one; this one
  /// is the language a localizer uses when none is requested.
  public var sourceLanguage: String { storage.sourceLanguage }

  /// What loading noticed but did not stop at, as warnings: a key written twice in one JSON
  /// object (the last copy is used) and a `version` Xcode has not written.
  public var loadIssues: [LocalizationIssue] { storage.issues }

  /// Every language that has at least one value or is a file's source language, normalized
  /// (`ko-KR`), the catalog's source language first and then in alphabetical order.
  public var languages: [String] { storage.languages }

  /// Every key, in alphabetical order.
  ///
  /// - Complexity: O(*n* log *n*) for *n* keys.
  public var keys: [String] { storage.positions.keys.sorted() }

  /// The names of the files loaded, in load order.
  public var files: [String] { storage.files }

  /// What the catalog was loaded with: ``Selection/everything``, or fewer keys and languages.
  public var selection: Selection { storage.selection }

  /// The name of the file that defines a key.
  ///
  /// - Parameter key: A key, such as `fruit.kiwi`.
  /// - Returns: The file name, such as `Localizable.xcstrings`, or `nil` if no file defines it.
  public func file(definingKey key: String) -> String? {
    storage.entry(forKey: key).map { storage.files[$0.entry.fileIndex] }
  }

  /// The translator comment of a key.
  ///
  /// - Parameter key: A key, such as `order.made`.
  /// - Returns: The comment, or `nil` when the key has none or does not exist.
  public func comment(forKey key: String) -> String? {
    storage.positions[key].flatMap { storage.comments[$0] }
  }
}
