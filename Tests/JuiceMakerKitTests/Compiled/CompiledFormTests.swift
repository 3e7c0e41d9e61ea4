import Foundation
import JuiceMakerCatalog
import Testing

@testable import JuiceMakerLocalization

/// The compiled form of packs and catalogs, and the cache that keeps it: it must give exactly
/// what parsing gives, and take nothing it is handed on trust.
@Suite struct CompiledFormTests {
  // MARK: - The hash

  @Test(arguments: [
    ("", UInt64(0), UInt64(0xEF46_DB37_51D8_E999)),
    ("", 7, 0x95F0_626F_6F0A_4409),
    ("a", 0, 0xD24E_C4F1_A98C_6E5B),
    ("abc", 0, 0x44BC_2CF5_AD77_0999),
    ("abc", 7, 0x9E75_5206_1566_76D7),
    ("0123456789abcdef0123456789abcdef0123456789", 0, 0xA761_90C3_ACF0_8A1C),
  ])
  func xxh64MatchesTheReference(text: String, seed: UInt64, expected: UInt64) {
    let hash = Array(text.utf8).withUnsafeBytes { ContentHash.xxh64($0, seed: seed) }
    #expect(hash == expected)
  }

  @Test func xxh64OfLongerInputMatchesTheReference() {
    let bytes = Array(repeating: Array(0...255), count: 3).flatMap { $0.map(UInt8.init) }
    #expect(bytes.withUnsafeBytes { ContentHash.xxh64($0) } == 0x8E03_C838_C596_036F)
    #expect(bytes.withUnsafeBytes { ContentHash.xxh64($0, seed: 7) } == 0xB1E1_0F6C_5294_CD6B)
  }

  @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 200_000])
  func aFileHashesAsItsBytesDo(size: Int) throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var random = SystemRandomNumberGenerator()
    let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
    let file = directory.appendingPathComponent("data")
    try Data(bytes).write(to: file)
    let read = try #require(ContentHash.ofFile(atPath: file.path, maximumSize: 1 << 20))
    #expect(read.size == size)
    #expect(read.hash == ContentHash.of(bytes))
    if size > 0 {
      #expect(ContentHash.ofFile(atPath: file.path, maximumSize: size - 1) == nil)
    }
  }

  // MARK: - Reading and writing

  @Test func numbersAndStringsReadBackAsWritten() throws {
    let numbers = [0, 1, -1, 63, 64, -64, 4095, 1 << 40, -(1 << 40), Int.max, Int.min]
    var writer = CompiledWriter()
    for number in numbers { writer.integer(number) }
    writer.string("딸기 🍓")
    writer.optional(nil)
    writer.part { $0.string("inside") }
    // Numbers are ASCII, so a compiled form is a Swift string literal's UTF-8.
    var numbersOnly = CompiledWriter()
    for number in numbers { numbersOnly.integer(number) }
    #expect(numbersOnly.bytes.allSatisfy { $0 < 0x80 })
    try writer.bytes.withUnsafeBytes { buffer in
      var reader = CompiledReader(buffer)
      for number in numbers { #expect(try reader.integer() == number) }
      #expect(try reader.string() == "딸기 🍓")
      #expect(try reader.optional() == nil)
      var part = try reader.part()
      #expect(try part.string() == "inside")
      #expect(reader.isAtEnd)
    }
  }

  @Test func aReaderRefusesWhatRunsPastItsEnd() {
    // An unfinished number, a number of more than 64 bits, a string longer than what is
    // left, a count larger than what is left, a flag that is not 0 or 1, a byte above 0x7F.
    let cases: [[UInt8]] = [
      [0x41], Array(repeating: 0x7F, count: 12), [0x0A, 0x61], [0x3F], [0x02], [0x80],
    ]
    for bytes in cases {
      bytes.withUnsafeBytes { buffer in
        var reader = CompiledReader(buffer)
        #expect(throws: CompiledForm.Damaged.self) {
          _ = try reader.integer()
          _ = try reader.string()
        }
        var counting = CompiledReader(buffer)
        #expect(throws: CompiledForm.Damaged.self) {
          _ = try counting.count()
          _ = try counting.flag()
          _ = try counting.flag()
        }
      }
    }
  }

  // MARK: - Packs

  /// A pack with a currency, prices and limits: every field the compiled form holds.
  static let pricedPack = """
    {"currency": "USD",
     "fruits": [{"id": "kiwi", "stock": 4, "min": 1, "par": 9}, {"id": "mango"}],
     "juices": [{"id": "kiwi-juice", "price": "4.50",
                 "ingredients": [{"fruit": "kiwi", "count": 3}, {"fruit": "mango", "count": 1}]},
                {"id": "mango-juice", "ingredients": [{"fruit": "mango", "count": 2}]}]}
    """

  @Test func aPackReadsBackFromItsCompiledFormAsParsed() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = CompiledCache(directory: directory.appendingPathComponent("cache").path)
    var sources = try FileManager.default.contentsOfDirectory(atPath: Paths.recipes.path)
      .sorted().map { PackSource.file(Paths.recipes.appendingPathComponent($0).path) }
    let priced = directory.appendingPathComponent("Priced.json")
    try Data(Self.pricedPack.utf8).write(to: priced)
    sources.append(.file(priced.path))
    // Priced.json defines kiwi again: load it on its own too.
    for group in [Array(sources.dropLast()), [sources.last!]] {
      let parsed = try Catalog.load(group)
      let first = try Catalog.load(group, cache: cache)
      CompiledCache.finishWriting()
      let second = try Catalog.load(group, cache: cache)
      for catalog in [first, second] {
        #expect(catalog.fruits == parsed.fruits)
        #expect(catalog.juices.map(\.id) == parsed.juices.map(\.id))
        #expect(catalog.juices.map(\.ingredients) == parsed.juices.map(\.ingredients))
        #expect(catalog.juices.map(\.price) == parsed.juices.map(\.price))
        #expect(catalog.currency == parsed.currency)
      }
    }
    let compiled = try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent("cache").path)
    #expect(compiled.count == sources.count, "\(compiled)")
  }

  @Test func aPackWithProblemsIsNeverCompiled() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cacheDirectory = directory.appendingPathComponent("cache")
    let cache = CompiledCache(directory: cacheDirectory.path)
    let pack = directory.appendingPathComponent("Broken.json")
    try Data(#"{"fruits": [{"id": "kiwi", "stock": -1}]}"#.utf8).write(to: pack)
    for _ in 0..<2 {
      #expect(throws: CatalogError.self) { try Catalog.load([.file(pack.path)], cache: cache) }
      CompiledCache.finishWriting()
    }
    #expect(!FileManager.default.fileExists(atPath: cacheDirectory.path))
  }

  /// A pack's compiled form whose checksum is right but whose values are not: each must be
  /// refused by the checks parsing makes, never trap.
  @Test(arguments: [
    "minimum above par", "negative stock", "invalid id", "zero count", "huge count",
    "repeated fruit", "price without currency", "invalid currency", "bad price",
  ])
  func aForgedPackIsAMissNotACrash(forgery: String) throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = CompiledCache(directory: directory.appendingPathComponent("cache").path)
    let pack = directory.appendingPathComponent("Priced.json")
    try Data(Self.pricedPack.utf8).write(to: pack)
    var writer = CompiledWriter()
    writer.optional(
      forgery == "price without currency" ? nil : forgery == "invalid currency" ? "usd" : "USD")
    writer.integer(forgery == "huge count" ? 1 << 50 : 2)
    for (id, stock) in [("kiwi", forgery == "negative stock" ? -4 : 4), ("mango", 10)] {
      writer.string(forgery == "invalid id" && id == "mango" ? "Mango!" : id)
      writer.integer(stock)
      writer.flag(id == "kiwi")
      if id == "kiwi" {
        writer.integer(forgery == "minimum above par" ? 9 : 1)
        writer.integer(forgery == "minimum above par" ? 1 : 9)
      }
    }
    writer.integer(1)
    writer.string("kiwi-juice")
    writer.optional(forgery == "bad price" ? "4.5.0" : "4.50")
    writer.integer(2)
    writer.string("kiwi")
    writer.integer(forgery == "zero count" ? 0 : 3)
    writer.string(forgery == "repeated fruit" ? "kiwi" : "mango")
    writer.integer(1)
    let bytes = Array(Self.pricedPack.utf8)
    cache.store(.pack, source: (ContentHash.of(bytes), bytes.count), body: writer.bytes)
    let catalog = try Catalog.load([.file(pack.path)], cache: cache)
    #expect(catalog.fruits.map(\.id.rawValue) == ["kiwi", "mango"])
    #expect(catalog.fruits.first?.limits == StockLimits(minimum: 1, par: 9))
    #expect(catalog.juices.map(\.id.rawValue) == ["kiwi-juice", "mango-juice"])
    CompiledCache.finishWriting()
    // The forged form was replaced by a sound one.
    let hit = cache.lookUp(.pack, source: (ContentHash.of(bytes), bytes.count)) {
      reader throws(CompiledForm.Damaged) in try Self.fruitCount(&reader)
    }
    #expect(hit == 2)
  }

  private static func fruitCount(_ reader: inout CompiledReader) throws(CompiledForm.Damaged)
    -> Int
  {
    _ = try reader.optional()
    let count = try reader.count()
    _ = try reader.raw(reader.remaining)
    return count
  }

  // MARK: - The cache

  @Test func theCacheIsPrivateAndTrustsNoOneElsesFiles() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cacheDirectory = directory.appendingPathComponent("a/b/cache").path
    let cache = CompiledCache(directory: cacheDirectory)
    let source = (hash: UInt64(42), size: 7)
    cache.store(.pack, source: source, body: [1, 2, 3])
    let path = cache.path(.pack, source: source)
    func mode(_ path: String) throws -> Int {
      try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
    #expect(try mode(cacheDirectory) == 0o700)
    #expect(try mode(path) == 0o600)
    let read = {
      cache.lookUp(.pack, source: source) { reader throws(CompiledForm.Damaged) in
        try reader.raw(3).map { $0 }
      }
    }
    #expect(read() == [1, 2, 3])
    // Another kind, another source, another size: misses.
    #expect(cache.lookUp(.strings, source: source) { _ throws(CompiledForm.Damaged) in 0 } == nil)
    #expect(cache.lookUp(.pack, source: (43, 7)) { _ throws(CompiledForm.Damaged) in 0 } == nil)
    // A file others may write is not read, nor is anything in a directory others may write.
    chmod(path, 0o666)
    #expect(read() == nil)
    chmod(path, 0o600)
    chmod(cacheDirectory, 0o777)
    #expect(read() == nil)
    chmod(cacheDirectory, 0o700)
    #expect(read() == [1, 2, 3])
    // A link to a sound file is not followed.
    let target = directory.appendingPathComponent("elsewhere").path
    try FileManager.default.moveItem(atPath: path, toPath: target)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    #expect(read() == nil)
    // Every byte of the file counts: each cut or changed byte is a miss.
    try FileManager.default.removeItem(atPath: path)
    cache.store(.pack, source: source, body: [1, 2, 3])
    let sound = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    for index in sound.indices {
      var damaged = sound
      damaged[index] ^= 0x01
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      #expect(read() == nil, "byte \(index) changed")
      try Data(sound.prefix(index)).write(to: URL(fileURLWithPath: path))
      #expect(read() == nil, "cut at \(index)")
    }
  }

  @Test func theCacheKeepsAtMostItsLimitOfFiles() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = CompiledCache(directory: directory.path)
    for index in 0..<(CompiledCache.maximumFiles + 5) {
      cache.store(.pack, source: (UInt64(index), 1), body: [0])
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.count == CompiledCache.maximumFiles)
    // The newest is kept.
    #expect(
      files.contains(
        (cache.path(.pack, source: (UInt64(CompiledCache.maximumFiles + 4), 1)) as NSString)
          .lastPathComponent))
  }

  // MARK: - String catalogs

  static let selections: [StringCatalog.Selection] = [
    .everything, .language("ko"), .language("en-US"),
    .language("ko", omittedPrefixes: ["juice."], keptKeys: ["juice.kiwi-juice"]),
    .language(nil, keys: ["order.made", "fruit.kiwi", "version.data"]),
  ]

  @Test(arguments: selections)
  func aCatalogReadsBackFromItsCompiledFormAsParsed(selection: StringCatalog.Selection) throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = CompiledCache(directory: directory.appendingPathComponent("cache").path)
    let shapes = Paths.fixtures.appendingPathComponent("Localization/Xcode/Shapes.xcstrings")
    let sources =
      try FileManager.default.contentsOfDirectory(atPath: Paths.localization.path).sorted()
      .map { PackSource.file(Paths.localization.appendingPathComponent($0).path) }
    for group in [sources, [PackSource.file(shapes.path)]] {
      let parsed = try StringCatalog(group, selection: selection)
      // The first load compiles, the second reads the compiled forms.
      for _ in 0..<2 {
        let compiled = try StringCatalog(group, selection: selection, cache: cache)
        CompiledCache.finishWriting()
        #expect(compiled.languages == parsed.languages)
        #expect(compiled.sourceLanguage == parsed.sourceLanguage)
        #expect(compiled.keys == parsed.keys)
        // A compiled form keeps every repeated JSON key of its file; a parse with fewer keys
        // sees only those it does not skip.
        if selection == .everything {
          #expect(
            compiled.loadIssues.map(\.description) == parsed.loadIssues.map(\.description))
        }
        for language in parsed.languages {
          let mine = compiled.localizer(for: language)
          let theirs = parsed.localizer(for: language)
          for key in parsed.keys {
            #expect(compiled.comment(forKey: key) == parsed.comment(forKey: key))
            #expect(compiled.file(definingKey: key) == parsed.file(definingKey: key))
            for count in [nil, 1, 2, 5] {
              let a = mine.rendering(key, count: count)
              let b = theirs.rendering(key, count: count)
              #expect(a.value == b.value && a.language == b.language, "\(key) \(language)")
              #expect(a.warnings.map(\.description) == b.warnings.map(\.description))
            }
          }
        }
      }
    }
  }

  @Test func aCatalogWithRepeatedKeysKeepsItsWarningsWhenCompiled() throws {
    let directory = try Paths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = CompiledCache(directory: directory.appendingPathComponent("cache").path)
    let file = directory.appendingPathComponent("Twice.xcstrings")
    try Data(
      #"""
      {"sourceLanguage": "en", "version": "9.9", "strings": {
        "a": {"localizations": {"en": {"stringUnit": {"state": "new", "value": "one"}}}},
        "a": {"localizations": {"en": {"stringUnit": {"state": "new", "value": "two"}}}}}}
      """#.utf8
    ).write(to: file)
    let parsed = try StringCatalog([.file(file.path)])
    #expect(parsed.loadIssues.count == 2)
    for _ in 0..<2 {
      let compiled = try StringCatalog([.file(file.path)], cache: cache)
      CompiledCache.finishWriting()
      #expect(compiled.loadIssues.map(\.description) == parsed.loadIssues.map(\.description))
      #expect(compiled.localizer(for: "en").string("a") == "two")
    }
  }

  /// Every catalog that parses is read from its compiled form: variations nested as deep as
  /// the parser lets them come back whole, at every level.
  @Test(arguments: [1, 40, 80])
  func variationsNestedDeepReadBackWhole(depth: Int) throws {
    var value = #"{"stringUnit": {"state": "new", "value": "deep"}}"#
    for _ in 0..<depth {
      value = #"{"variations": {"device": {"other": "# + value + "}}}"
    }
    let document =
      #"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"en": "#
      + value + "}}}}"
    let decoded = try StringCatalogFile.decode(Array(document.utf8), file: "Deep.xcstrings")
    var variant = try #require(decoded.file.strings?.first?.value.localizations?.first?.value)
      .variations
    var levels = 0
    var unit: StringCatalogFile.StringUnit?
    while let variations = variant, let other = variations.device?.first?.value {
      levels += 1
      unit = other.stringUnit
      variant = other.variations
    }
    #expect(levels == depth)
    #expect(unit?.value == "deep")
  }

  // A forged catalog (variations nested 10,000 deep, a count of 2^50) is in the reliability
  // corpus, read by the built program.
}
