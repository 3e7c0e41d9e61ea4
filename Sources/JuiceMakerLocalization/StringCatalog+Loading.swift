public import FoundationEssentials
public import JuiceMakerCatalog

extension StringCatalog {
  /// Loads and merges every `.xcstrings` file directly in a directory, in file-name order.
  ///
  /// A pack adds strings by shipping its own file next to `Localizable.xcstrings`, such as
  /// `Tropical.xcstrings`. Hidden files and subdirectories are not read.
  ///
  /// Files merge per key and per language: a file may add a language to keys another file
  /// defines, such as a `Japanese.xcstrings` holding only `ja` values. Each file keeps its own
  /// source language: its keys fall back to it. The catalog's ``sourceLanguage`` is the first
  /// file's. A key written twice in one JSON object, or a
  /// `version` other than 1.0 to 1.3, loads with a warning in ``loadIssues``.
  ///
  /// - Parameter directory: The directory, usually `Localization/`.
  /// - Throws: `LocalizationError` naming each file and problem: the directory cannot be listed or
  ///   holds no catalog, a file is unreadable, not JSON, or not a string catalog, or two files
  ///   give the same key a value in the same language. Every problem found is reported together in
  ///   ``LocalizationError/multiple(errors:)``.
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
  /// Each file is read as packs are: a regular file of at most 16 MiB.
  ///
  /// - Parameter files: The files; errors name them by their last path component.
  /// - Throws: `LocalizationError`, as ``init(directory:)`` does.
  public init(contentsOf files: [URL]) throws(LocalizationError) {
    try self.init(
      sources: files.map { ($0.lastPathComponent, PackSource.file($0.path)) }, cache: nil)
  }

  /// Loads one catalog from its contents.
  ///
  /// - Parameters:
  ///   - data: The contents of an `.xcstrings` file.
  ///   - fileName: The name errors use for it.
  /// - Throws: `LocalizationError.malformedJSON` or `LocalizationError.invalidStructure`.
  public init(data: Data, fileName: String = "Localizable.xcstrings") throws(LocalizationError) {
    try self.init(sources: [(fileName, .bytes([UInt8](data), name: fileName))], cache: nil)
  }

  /// Loads and merges catalogs given by name and contents, such as catalogs built into a
  /// program, in the given order.
  ///
  /// - Parameters:
  ///   - sources: Each catalog's name, which errors and ``file(definingKey:)`` use (such as
  ///     `<built-in>/Localization/Localizable.xcstrings`), and its contents.
  ///   - selection: The keys and languages to build; every one by default. See ``Selection``
  ///     for what a load of fewer does not check.
  /// - Throws: `LocalizationError`, as ``init(directory:)`` does.
  public init(sources: [(name: String, data: Data)], selection: Selection = .everything)
    throws(LocalizationError)
  {
    guard !sources.isEmpty else { throw .noCatalogFiles(location: "(no files)") }
    try self.init(
      sources: sources.map { ($0.name, .bytes([UInt8]($0.data), name: $0.name)) },
      selection: selection, cache: nil)
  }

  /// Loads and merges catalogs from files and from memory, in the given order, each named
  /// by its path.
  ///
  /// Each file is read as packs are: a regular file of at most 16 MiB.
  ///
  /// - Parameters:
  ///   - sources: The catalogs.
  ///   - selection: The keys and languages to build; every one by default.
  ///   - cache: Where the catalogs' compiled forms are kept between loads, if anywhere: a
  ///     catalog read before is then read without parsing. A catalog read for the first time
  ///     is compiled into it on another thread: call `CompiledCache.finishWriting()` before
  ///     the program exits. See `CompiledCache`.
  /// - Throws: `LocalizationError`, as ``init(directory:)`` does.
  public init(
    _ sources: [PackSource], selection: Selection = .everything, cache: CompiledCache? = nil
  ) throws(LocalizationError) {
    guard !sources.isEmpty else { throw .noCatalogFiles(location: "(no files)") }
    try self.init(sources: sources.map { ($0.path, $0) }, selection: selection, cache: cache)
  }

  /// Reads, decodes, merges, and compiles catalog files, collecting every problem: the files
  /// that cannot be read first, then the rest in file order.
  private init(
    sources: [(name: String, source: PackSource)], selection: Selection = .everything,
    cache: CompiledCache?
  ) throws(LocalizationError) {
    var unreadable: [LocalizationError] = []
    var errors: [LocalizationError] = []
    var decoded: [DecodedFile] = []
    var issues: [LocalizationIssue] = []
    for source in sources {
      do {
        let (file, duplicates) = try StringCatalogFile.load(
          source.source, name: source.name, selection: selection,
          sourceLanguages: Set(decoded.map(\.sourceLanguage)), cache: cache)
        let sourceLanguage =
          LanguageTag.normalized(file.sourceLanguage) ?? file.sourceLanguage
        decoded.append(DecodedFile(name: source.name, file: file, sourceLanguage: sourceLanguage))
        for duplicate in duplicates {
          issues.append(
            LocalizationIssue(
              severity: .warning, language: nil, key: nil,
              problem: .duplicateJSONKey(
                file: source.name, key: duplicate.key, line: duplicate.line,
                column: duplicate.column, droppedLine: duplicate.droppedLine)))
        }
        if let version = file.version, !Self.knownVersions.contains(version) {
          issues.append(
            LocalizationIssue(
              severity: .warning, language: nil, key: nil,
              problem: .unknownVersion(file: source.name, version: version)))
        }
      } catch {
        if case .unreadableFile = error {
          unreadable.append(error)
        } else {
          errors.append(error)
        }
      }
    }
    errors = unreadable + errors
    guard let first = decoded.first else {
      throw LocalizationError.combining(errors) ?? .noCatalogFiles(location: "(no files)")
    }

    var merged = MergedKeys()
    merged.reserveCapacity(decoded.reduce(0) { $0 + ($1.file.strings?.count ?? 0) })
    for (index, file) in decoded.enumerated() {
      for (position, (key, _)) in (file.file.strings ?? []).enumerated()
      where selection.includes(key: key) {
        merged.add(key, file: index, position: position)
      }
    }
    let (storage, duplicates) = Self.compile(
      merged, files: decoded, sourceLanguage: first.sourceLanguage, issues: issues,
      selection: selection)
    if let error = LocalizationError.combining(errors + duplicates) {
      throw error
    }
    self.storage = storage
  }

  /// Each key's definitions in file order, without an array for each key: most keys have
  /// one, and a large catalog has tens of thousands of keys.
  ///
  /// A definition is where its entry is, the file and its place among the file's strings,
  /// so that merging copies no entry. Each key has a position, the order it was first added
  /// in, which becomes its position in the catalog's storage.
  private struct MergedKeys {
    /// Every definition, in the order added, with the index of the next of its key.
    private(set) var definitions: [(file: Int, position: Int, next: Int)] = []
    /// Each key, by position.
    private(set) var keys: [String] = []
    /// The index of each key's first definition, by position.
    private(set) var firsts: [Int] = []
    /// The position of each key, and the index of its last definition.
    private var known: [String: (position: Int, last: Int)] = [:]

    var count: Int { keys.count }

    /// The position of each key, laid out as the keys were hashed when added: no key is
    /// hashed again.
    var positions: [String: Int] { known.mapValues(\.position) }

    mutating func reserveCapacity(_ capacity: Int) {
      definitions.reserveCapacity(capacity)
      keys.reserveCapacity(capacity)
      firsts.reserveCapacity(capacity)
      known.reserveCapacity(capacity)
    }

    /// Adds a definition of `key`, the entry at `position` in the strings of `file`, after
    /// those added before.
    mutating func add(_ key: String, file: Int, position: Int) {
      let index = definitions.count
      definitions.append((file, position, -1))
      if let found = known[key] {
        definitions[found.last].next = index
        known[key] = (found.position, index)
      } else {
        known[key] = (keys.count, index)
        keys.append(key)
        firsts.append(index)
      }
    }
  }

  /// The `version` values Xcode has written; another one loads with a warning.
  static let knownVersions: Set<String> = ["1.0", "1.1", "1.2", "1.3"]

  /// One decoded file with its normalized source language.
  private struct DecodedFile {
    let name: String
    let file: StringCatalogFile
    let sourceLanguage: String
  }

  /// Parses every value of the merged entries into its immutable, render-ready form.
  ///
  /// A key's languages may come from several files: each file adds the languages it gives a
  /// value in. The key belongs to the first file that gives it a value in that file's source
  /// language (else the first file that has it), which sets its source language, comment, and
  /// `shouldTranslate`.
  ///
  /// - Returns: The storage, and a ``LocalizationError/duplicateKey(key:language:firstFile:secondFile:)``
  ///   for each key two files give a value in the same language, in file order.
  private static func compile(
    _ merged: MergedKeys, files: [DecodedFile],
    sourceLanguage: String, issues: [LocalizationIssue], selection: Selection
  ) -> (Storage, [LocalizationError]) {
    // Every key names the same few languages: normalize each spelling once, and look up the
    // spelling just seen without hashing it again.
    var tagsBySpelling: [String: String] = [:]
    var lastSpelling: String?
    let definitions = merged.definitions
    let strings = files.map { $0.file.strings ?? [] }
    for definition in definitions {
      let localizations = strings[definition.file][definition.position].value.localizations ?? []
      for index in localizations.indices {
        let language = localizations[index].name
        guard language != lastSpelling, tagsBySpelling[language] == nil else { continue }
        tagsBySpelling[language] = LanguageTag.normalized(language) ?? language
        lastSpelling = language
      }
    }
    // A language a selection left out still counts, with no value.
    let builtTags = Set(tagsBySpelling.values).union(files.map(\.sourceLanguage))
    let unbuiltTags = files.flatMap { file in
      file.file.unbuiltLanguages.map { LanguageTag.normalized($0) ?? $0 }
    }
    let tags = builtTags.union(unbuiltTags).subtracting([sourceLanguage])
    let languages = [sourceLanguage] + tags.sorted()
    // Each language's place among a key's values; a language no key has a value in has none.
    var slotCount = 0
    let slots = languages.map { language -> Int? in
      guard builtTags.contains(language) else { return nil }
      defer { slotCount += 1 }
      return slotCount
    }
    let indices = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })
    let rules = languages.map(PluralRule.init(language:))
    // The index in `languages` of each spelling, and of each file's source language.
    let indexBySpelling = tagsBySpelling.compactMapValues { indices[$0] }
    let sourceIndexOfFile = files.map { indices[$0.sourceLanguage] }
    var recent: [(spelling: String, index: Int?)] = []
    func index(of spelling: String) -> Int? {
      if let known = recent.first(where: { $0.spelling == spelling }) { return known.index }
      let found = indexBySpelling[spelling]
      if recent.count < 4 { recent.append((spelling, found)) }
      return found
    }

    var entries: [CatalogEntry] = []
    entries.reserveCapacity(merged.count)
    var comments: [String?] = []
    comments.reserveCapacity(merged.count)
    var values: [CatalogLocalization?] = []
    values.reserveCapacity(merged.count * slotCount)
    var duplicates: [(file: Int, key: String, language: String, error: LocalizationError)] = []
    // The file that gave each language its value, for the key at hand; one array for all.
    var owners = [Int?](repeating: nil, count: languages.count)
    /// The entry of the definition at `position`, read in place.
    func entry(_ position: Int) -> StringCatalogFile.Entry {
      strings[definitions[position].file][definitions[position].position].value
    }
    /// The positions of a key's definitions, from its first, in file order.
    func chain(from first: Int) -> UnfoldFirstSequence<Int> {
      sequence(first: first) { definitions[$0].next >= 0 ? definitions[$0].next : nil }
    }
    // Each key in position order, so that its entry, comment and values are the position's.
    for (key, first) in zip(merged.keys, merged.firsts) {
      // The key's values go after the previous key's, one for each language that has a slot.
      let base = values.count
      values.append(contentsOf: repeatElement(nil, count: slotCount))
      for index in owners.indices { owners[index] = nil }
      // The key's definitions are walked in place, by position: an entry is not copied out.
      for position in chain(from: first) {
        let fileIndex = definitions[position].file
        // Sorted so that, should two spellings normalize alike (`ko_KR`, `ko-KR`), the result
        // does not depend on the order they are written in.
        var decoded = strings[fileIndex][definitions[position].position].value.localizations ?? []
        if decoded.count > 1 {
          let spelled = decoded.map { index(of: $0.name) }
          let alike = spelled.indices.contains { i in
            spelled[..<i].contains { $0 == spelled[i] }
          }
          if alike {
            decoded.sort { $0.name < $1.name }
          }
        }
        for (language, localization) in decoded {
          guard let index = index(of: language), let slot = slots[index],
            let compiled = CatalogLocalization(localization, rule: rules[index])
          else { continue }
          let tag = languages[index]
          if let owner = owners[index] {
            if owner != fileIndex {
              duplicates.append(
                (
                  fileIndex, key, tag,
                  .duplicateKey(
                    key: key, language: tag, firstFile: files[owner].name,
                    secondFile: files[fileIndex].name)
                ))
            }
            continue
          }
          values[base + slot] = compiled
          owners[index] = fileIndex
        }
      }
      // The first definition whose file gave the key its value in that file's source
      // language, else the first.
      let definer =
        chain(from: first).first { position in
          let file = definitions[position].file
          return sourceIndexOfFile[file].map { owners[$0] == file } ?? false
        } ?? first
      let definerEntry = entry(definer)
      let definerFile = definitions[definer].file
      let sourceIndex = sourceIndexOfFile[definerFile] ?? 0
      // As in Xcode, a key without a value in its source language is its own source text.
      // A file's source language always has a slot.
      let sourceSlot = base + (slots[sourceIndex] ?? 0)
      let keyIsSourceText = values[sourceSlot] == nil
      if keyIsSourceText {
        values[sourceSlot] = CatalogLocalization(sourceText: key, rule: rules[sourceIndex])
      }
      entries.append(
        CatalogEntry(
          fileIndex: definerFile, sourceIndex: sourceIndex,
          shouldTranslate: definerEntry.shouldTranslate ?? true, keyIsSourceText: keyIsSourceText,
          takesArguments: values[base...].contains { $0?.takesArguments == true }))
      comments.append(
        definerEntry.comment ?? chain(from: first).lazy.compactMap { entry($0).comment }.first)
    }
    duplicates.sort { ($0.file, $0.key, $0.language) < ($1.file, $1.key, $1.language) }
    let storage = Storage(
      sourceLanguage: sourceLanguage, languages: languages, slots: slots,
      positions: merged.positions,
      entries: entries, comments: comments, values: values, files: files.map(\.name),
      issues: issues, selection: selection)
    return (storage, duplicates.map(\.error))
  }
}
