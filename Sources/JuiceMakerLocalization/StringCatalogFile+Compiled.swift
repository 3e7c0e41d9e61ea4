import JuiceMakerCatalog

// MARK: - Loading through the cache

extension StringCatalogFile {
  /// Decodes one catalog, from its compiled form when there is a sound one.
  ///
  /// Otherwise the file is parsed. With a cache, a file that compiles with every key and
  /// language is answered from that compiled form, read with the selection as a later load
  /// reads it from the cache, and the form is written to the cache on another thread. A file
  /// that does not compile whole is decoded with the selection alone, as without a cache.
  ///
  /// - Parameters:
  ///   - source: The file or the bytes.
  ///   - name: The name errors use for it.
  ///   - selection: The keys and languages to build.
  ///   - sourceLanguages: The normalized source languages of the files loaded before.
  ///   - cache: Where compiled forms are kept, if anywhere.
  /// - Returns: The decoded file and the keys its JSON repeated.
  /// - Throws: `LocalizationError.unreadableFile`, `.malformedJSON` or `.invalidStructure`.
  static func load(
    _ source: PackSource, name: String, selection: StringCatalog.Selection,
    sourceLanguages: Set<String>, cache: CompiledCache?
  ) throws(LocalizationError) -> (file: StringCatalogFile, duplicates: [JSONParser.DuplicateKey]) {
    let contents = source.contents(
      .strings, cache: cache,
      decode: { reader throws(CompiledForm.Damaged) in
        try decode(compiled: &reader, selection: selection, sourceLanguages: sourceLanguages)
      })
    let bytes: [UInt8]
    let key: (hash: UInt64, size: Int)?
    switch contents {
    case .compiled(let read):
      return read
    case .unreadable(let reason):
      let detail =
        switch reason {
        case .unreadable(let detail): detail
        case .notAFile: "not a regular file"
        default: reason.description
        }
      throw .unreadableFile(file: name, reason: detail)
    case .bytes(let read, let readKey):
      (bytes, key) = (read, readKey)
    }
    guard let cache, let key, let body = try? compiledBody(bytes, file: name) else {
      return try decode(bytes, file: name, selection: selection, sourceLanguages: sourceLanguages)
    }
    // Written while the command goes on; the program waits for it before it exits.
    cache.storeLater(.strings, source: key) { body }
    return try read(body, file: name, selection: selection, sourceLanguages: sourceLanguages)
  }
}

extension CompiledForm {
  /// The compiled file of a string catalog, for the build plugin; `nil` when the catalog
  /// has problems.
  ///
  /// - Parameters:
  ///   - bytes: The catalog's JSON.
  ///   - name: Its path.
  package static func compileCatalog(_ bytes: [UInt8], name: String) -> [UInt8]? {
    guard let body = try? StringCatalogFile.compiledBody(bytes, file: name) else { return nil }
    return file(kind: .strings, source: (ContentHash.of(bytes), bytes.count), body: body)
  }
}

// MARK: - Reading

extension StringCatalogFile {
  /// Reads a compiled form with a selection, as ``decode(_:file:selection:sourceLanguages:)``
  /// reads JSON with one: a key the selection leaves out is skipped, and a language it
  /// leaves out is skipped in every key and named in ``unbuiltLanguages``, so its name still
  /// counts.
  ///
  /// - Parameters:
  ///   - reader: The compiled form's body.
  ///   - selection: The keys and languages to build.
  ///   - sourceLanguages: The normalized source languages of the files loaded before.
  /// - Returns: The file and the keys its JSON repeated.
  /// - Throws: `Damaged` for anything that is not a sound compiled catalog.
  static func decode(
    compiled reader: inout CompiledReader, selection: StringCatalog.Selection = .everything,
    sourceLanguages: Set<String> = []
  ) throws(CompiledForm.Damaged) -> (file: StringCatalogFile, duplicates: [JSONParser.DuplicateKey])
  {
    let sourceLanguage = try reader.string()
    let version = try reader.optional()
    var duplicates: [JSONParser.DuplicateKey] = []
    for _ in 0..<(try reader.count()) {
      duplicates.append(
        JSONParser.DuplicateKey(
          key: try reader.string(), line: try reader.integer(), column: try reader.integer(),
          droppedLine: try reader.integer()))
    }
    let languages = selection.languagesBuilt(
      sourceLanguages: sourceLanguages, fileSourceLanguage: sourceLanguage)
    // Every key names the same few languages: judge each spelling once.
    var keeps: [String: Bool] = [:]
    let hasStrings = try reader.flag()
    var strings: [(name: String, value: Entry)] = []
    let count = try reader.count()
    strings.reserveCapacity(selection.isEverything ? count : 0)
    for _ in 0..<count {
      let keyBytes = try reader.stringBytes()
      var part = try reader.part()
      guard selection.includes(keyUTF8: keyBytes) else { continue }
      var key = CompiledReader(keyBytes)
      let text = try key.string(length: keyBytes.count)
      strings.append(
        (text, try Entry(compiled: &part, languages: languages, keeps: &keeps)))
      guard part.isAtEnd else { throw CompiledForm.Damaged() }
    }
    return (
      StringCatalogFile(
        sourceLanguage: sourceLanguage, version: version, strings: hasStrings ? strings : nil,
        unbuiltLanguages: Set(keeps.compactMap { $0.value ? nil : $0.key })),
      duplicates
    )
  }
}

/// How deep variations may nest in a compiled form: deeper than the JSON parser's depth lets a
/// catalog write them (each level takes three objects), so every catalog that parses reads
/// back, and shallow enough that a hostile file cannot exhaust the stack.
private let maximumNesting = JSONParser.maximumDepth / 3 + 1

extension StringCatalogFile.Entry {
  fileprivate init(
    compiled reader: inout CompiledReader, languages: Set<String>?, keeps: inout [String: Bool]
  ) throws(CompiledForm.Damaged) {
    comment = try reader.optional()
    extractionState = try reader.optional()
    switch try reader.integer() {
    case 0: shouldTranslate = nil
    case 1: shouldTranslate = false
    case 2: shouldTranslate = true
    default: throw CompiledForm.Damaged()
    }
    let hasLocalizations = try reader.flag()
    var localizations: [(name: String, value: StringCatalogFile.Localization)] = []
    for _ in 0..<(try reader.count()) {
      let language = try reader.string()
      var part = try reader.part()
      let kept: Bool
      if let languages {
        if let judged = keeps[language] {
          kept = judged
        } else {
          kept = StringCatalog.Selection.builds(language: language, in: languages)
          keeps[language] = kept
        }
      } else {
        kept = true
      }
      guard kept else { continue }
      localizations.append((language, try StringCatalogFile.Localization(compiled: &part)))
      guard part.isAtEnd else { throw CompiledForm.Damaged() }
    }
    self.localizations = hasLocalizations ? localizations : nil
  }
}

extension StringCatalogFile.Localization {
  fileprivate init(compiled reader: inout CompiledReader) throws(CompiledForm.Damaged) {
    stringUnit = try reader.flag() ? try StringCatalogFile.StringUnit(compiled: &reader) : nil
    if try reader.flag() {
      let state = try reader.optional()
      var values: [String] = []
      for _ in 0..<(try reader.count()) { values.append(try reader.string()) }
      stringSet = StringCatalogFile.StringSet(state: state, values: values)
    }
    variations =
      try reader.flag() ? try StringCatalogFile.Variations(compiled: &reader, depth: 0) : nil
    let hasSubstitutions = try reader.flag()
    var substitutions: [(name: String, value: StringCatalogFile.Substitution)] = []
    for _ in 0..<(try reader.count()) {
      let name = try reader.string()
      let argNum = try reader.flag() ? try reader.integer() : nil
      let formatSpecifier = try reader.optional()
      let variations =
        try reader.flag() ? try StringCatalogFile.Variations(compiled: &reader, depth: 0) : nil
      substitutions.append(
        (
          name,
          StringCatalogFile.Substitution(
            argNum: argNum, formatSpecifier: formatSpecifier, variations: variations)
        ))
    }
    self.substitutions = hasSubstitutions ? substitutions : nil
  }
}

extension StringCatalogFile.StringUnit {
  fileprivate init(compiled reader: inout CompiledReader) throws(CompiledForm.Damaged) {
    state = try reader.optional()
    value = try reader.string()
  }
}

extension StringCatalogFile.Variations {
  fileprivate init(compiled reader: inout CompiledReader, depth: Int) throws(CompiledForm.Damaged) {
    guard depth < maximumNesting else { throw CompiledForm.Damaged() }
    var read: [[(name: String, value: StringCatalogFile.Variant)]?] = []
    for _ in 0..<2 {
      let present = try reader.flag()
      var branches: [(name: String, value: StringCatalogFile.Variant)] = []
      for _ in 0..<(try reader.count()) {
        let name = try reader.string()
        let unit = try reader.flag() ? try StringCatalogFile.StringUnit(compiled: &reader) : nil
        let variations =
          try reader.flag()
          ? try StringCatalogFile.Variations(compiled: &reader, depth: depth + 1) : nil
        branches.append((name, StringCatalogFile.Variant(stringUnit: unit, variations: variations)))
      }
      read.append(present ? branches : nil)
    }
    plural = read[0]
    device = read[1]
  }
}
