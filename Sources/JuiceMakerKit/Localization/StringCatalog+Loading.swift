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
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .unreadableDirectory(path: directory.path, reason: error.localizedDescription)
    }
    let files =
      names
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
    for (name, file) in decoded {
      let language = LanguageTag.normalized(file.sourceLanguage) ?? file.sourceLanguage
      if language != sourceLanguage {
        errors.append(
          .sourceLanguageMismatch(file: name, expected: sourceLanguage, found: file.sourceLanguage))
      }
      for key in (file.strings ?? [:]).keys.sorted() {
        guard let entry = file.strings?[key] else { continue }
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
    var tags: Set<String> = [sourceLanguage]
    for (entry, _) in merged.values {
      for language in (entry.localizations ?? [:]).keys {
        tags.insert(LanguageTag.normalized(language) ?? language)
      }
    }
    let languages = [sourceLanguage] + tags.subtracting([sourceLanguage]).sorted()
    let indices = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })

    var entries: [String: CatalogEntry] = [:]
    entries.reserveCapacity(merged.count)
    for (key, (entry, file)) in merged {
      var localizations = [CatalogLocalization?](repeating: nil, count: languages.count)
      // Sorted so that, should two spellings normalize alike (`ko_KR`, `ko-KR`), the result
      // does not depend on dictionary order.
      for (language, localization) in (entry.localizations ?? [:]).sorted(by: { $0.key < $1.key }) {
        let tag = LanguageTag.normalized(language) ?? language
        guard let index = indices[tag], localizations[index] == nil else { continue }
        localizations[index] = CatalogLocalization(localization, language: tag)
      }
      entries[key] = CatalogEntry(
        file: file, comment: entry.comment, shouldTranslate: entry.shouldTranslate ?? true,
        localizations: localizations)
    }
    return Storage(
      sourceLanguage: sourceLanguage, languages: languages, entries: entries, files: files)
  }
}
