public import Foundation

extension StringCatalog {
  /// Loads and merges every `.xcstrings` file directly in a directory, in file-name order.
  ///
  /// A pack adds strings by shipping its own file next to `Localizable.xcstrings`, such as
  /// `Tropical.xcstrings`. Hidden files and subdirectories are not read.
  ///
  /// - Parameter directory: The directory, usually `Localization/`.
  /// - Throws: `LocalizationError` naming each file and problem: the directory cannot be listed or
  ///   holds no catalog, a file is unreadable, not JSON, or not a string catalog, two files define
  ///   the same key, or the files disagree on the source language. Every problem found is
  ///   reported together in ``LocalizationError/multiple(errors:)``.
  /// - Complexity: O(*n*) in the total size of the files.
  public init(directory: URL) throws(LocalizationError) {
    // Listed with POSIX calls, as recipes are: `FileManager` costs a tenth of a millisecond
    // more at start-up.
    let names: [[UInt8]]
    do {
      names = try Catalog.entryNames(atPath: directory.path)
    } catch {
      let reason =
        switch error.problems.first?.reason {
        case .unreadable(let detail)?: detail
        case let reason?: reason.description
        case nil: "cannot be listed"
        }
      throw .unreadableDirectory(path: directory.path, reason: reason)
    }
    let files =
      names
      .map { String(decoding: $0, as: UTF8.self) }
      .filter { $0.hasSuffix(".xcstrings") && !$0.hasPrefix(".") }
      .sorted()
      .map { directory.appendingPathComponent($0, isDirectory: false) }
    guard !files.isEmpty else {
      throw .noCatalogFiles(location: directory.path)
    }
    try self.init(contentsOf: files)
  }

  /// Loads and merges catalog files in the given order.
  ///
  /// - Parameter files: The files; errors name them by their last path component.
  /// - Throws: `LocalizationError`, as ``init(directory:)`` does.
  public init(contentsOf files: [URL]) throws(LocalizationError) {
    var sources: [(name: String, data: Data)] = []
    var errors: [LocalizationError] = []
    for file in files {
      do {
        sources.append((file.lastPathComponent, try Data(contentsOf: file)))
      } catch {
        errors.append(
          .unreadableFile(file: file.lastPathComponent, reason: error.localizedDescription))
      }
    }
    try self.init(sources: sources, errors: errors)
  }

  /// Loads one catalog from its contents.
  ///
  /// - Parameters:
  ///   - data: The contents of an `.xcstrings` file.
  ///   - fileName: The name errors use for it.
  /// - Throws: `LocalizationError.malformedJSON` or `LocalizationError.invalidStructure`.
  public init(data: Data, fileName: String = "Localizable.xcstrings") throws(LocalizationError) {
    try self.init(sources: [(fileName, data)], errors: [])
  }

  /// Loads and merges catalogs given by name and contents, in the given order.
  ///
  /// - Parameter sources: Each catalog's name, which errors use (such as
  ///   `<built-in>/Localization/Localizable.xcstrings`), and its contents.
  /// - Throws: `LocalizationError`, as ``init(directory:)`` does.
  public init(sources: [(name: String, data: Data)]) throws(LocalizationError) {
    try self.init(sources: sources, errors: [])
  }

  /// Decodes, merges, and compiles catalog files, collecting every problem.
  private init(sources: [(name: String, data: Data)], errors: [LocalizationError])
    throws(LocalizationError)
  {
    var errors = errors
    var decoded: [(name: String, file: StringCatalogFile)] = []
    for source in sources {
      do {
        decoded.append((source.name, try StringCatalogFile.decode(source.data, file: source.name)))
      } catch {
        errors.append(error)
      }
    }
    guard let first = decoded.first else {
      throw LocalizationError.combining(errors) ?? .noCatalogFiles(location: "(no files)")
    }

    let sourceLanguage =
      LanguageTag.normalized(first.file.sourceLanguage) ?? first.file.sourceLanguage
    var merged: [String: (entry: StringCatalogFile.Entry, file: String)] = [:]
    merged.reserveCapacity(decoded.reduce(0) { $0 + ($1.file.strings?.count ?? 0) })
    for (name, file) in decoded {
      let language = LanguageTag.normalized(file.sourceLanguage) ?? file.sourceLanguage
      if language != sourceLanguage {
        errors.append(
          .sourceLanguageMismatch(file: name, expected: sourceLanguage, found: file.sourceLanguage))
      }
      for (key, entry) in (file.strings ?? []).sorted(by: { $0.name < $1.name }) {
        if let existing = merged[key] {
          errors.append(.duplicateKey(key: key, firstFile: existing.file, secondFile: name))
        } else {
          merged[key] = (entry, name)
        }
      }
    }
    if let error = LocalizationError.combining(errors) {
      throw error
    }
    storage = Self.compile(merged, sourceLanguage: sourceLanguage, files: decoded.map(\.name))
  }

  /// Parses every value of the merged entries into its immutable, render-ready form.
  private static func compile(
    _ merged: [String: (entry: StringCatalogFile.Entry, file: String)],
    sourceLanguage: String, files: [String]
  ) -> Storage {
    // Every key names the same few languages: normalize each spelling once.
    var tagsBySpelling: [String: String] = [:]
    for (entry, _) in merged.values {
      for (language, _) in entry.localizations ?? [] where tagsBySpelling[language] == nil {
        tagsBySpelling[language] = LanguageTag.normalized(language) ?? language
      }
    }
    let tags = Set(tagsBySpelling.values).subtracting([sourceLanguage])
    let languages = [sourceLanguage] + tags.sorted()
    let indices = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })
    let rules = languages.map(PluralRule.init(language:))

    var entries: [String: CatalogEntry] = [:]
    entries.reserveCapacity(merged.count)
    for (key, (entry, file)) in merged {
      var localizations = [CatalogLocalization?](repeating: nil, count: languages.count)
      // Sorted so that, should two spellings normalize alike (`ko_KR`, `ko-KR`), the result
      // does not depend on the order they are written in.
      var decoded = entry.localizations ?? []
      if decoded.count > 1 {
        decoded.sort { $0.name < $1.name }
      }
      for (language, localization) in decoded {
        guard let tag = tagsBySpelling[language], let index = indices[tag],
          localizations[index] == nil
        else { continue }
        localizations[index] = CatalogLocalization(localization, rule: rules[index])
      }
      entries[key] = CatalogEntry(
        file: file, comment: entry.comment, shouldTranslate: entry.shouldTranslate ?? true,
        localizations: localizations)
    }
    return Storage(
      sourceLanguage: sourceLanguage, languages: languages, entries: entries, files: files)
  }
}
