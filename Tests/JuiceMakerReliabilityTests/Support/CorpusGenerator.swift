import Foundation
import JuiceMakerCatalog
import JuiceMakerKit
import JuiceMakerLocalization
import JuiceMakerSQLite

/// The steps that make a corpus case's files at test time: what is too big to
/// commit, or cannot be committed at all (symlink loops, FIFOs, modes, damaged
/// stores, a held lock).
enum CorpusGenerator {
  /// Where a case's inputs are inside its workspace.
  struct Layout {
    let workspace: Workspace
    var recipes: String { workspace.path("recipes") }
    var localization: String { workspace.path("localization") }
    var store: String { workspace.path("store/store.sqlite") }
  }

  /// Something a step leaves running while the command runs, such as a held lock.
  final class Holder: Sendable {
    private let release: DispatchSemaphore
    private let finished: DispatchSemaphore

    init(release: DispatchSemaphore, finished: DispatchSemaphore) {
      self.release = release
      self.finished = finished
    }

    /// Ends what the step left running, and waits for it.
    func end() {
      release.signal()
      finished.wait()
    }
  }

  /// Runs the named step.
  ///
  /// - Returns: What to end after the command, if anything.
  static func apply(_ name: String, to layout: Layout) throws -> Holder? {
    let fileManager = FileManager.default
    switch name {
    case "none", "noPacks":
      break
    // MARK: Packs
    case "deepArrays":
      try write(
        Array(#"{"fruits": "#.utf8) + repeated("[", 5000) + repeated("]", 5000) + Array("}".utf8),
        to: layout.recipes + "/deep.json")
    case "deepObjects":
      try write(
        repeated(#"{"a":"#, 5000) + Array("1".utf8) + repeated("}", 5000),
        to: layout.recipes + "/deep.json")
    case "tenMegabytesOfWhitespace":
      let fruits = try [UInt8](
        Data(contentsOf: Paths.recipes.appendingPathComponent("fruits.json")))
      let padding = [UInt8]((0..<5_000_000).map { [0x20, 0x0A, 0x09, 0x0D][$0 % 4] })
      try write(padding + fruits + padding, to: layout.recipes + "/fruits.json")
    case "tenMegabyteID":
      try write(
        Array(#"{"fruits": [{"id": ""#.utf8) + repeated("k", 10_000_000) + Array(#""}]}"#.utf8),
        to: layout.recipes + "/big.json")
    case "tenMegabytesOfProblems":
      try write(
        Array(#"{"fruits": [1"#.utf8) + repeated(",1", 5_000_000) + Array("]}".utf8),
        to: layout.recipes + "/problems.json")
    case "tenMegabytesOfUnknownFruits":
      // Well-formed juices, each naming a fruit no pack defines: problems of the merge.
      var bytes = Array(#"{"juices": ["#.utf8)
      for index in 0..<180_000 {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes += Array(
          #"{"id": "j\#(index)", "ingredients": [{"fruit": "f\#(index)", "count": 1}]}"#.utf8)
      }
      try write(bytes + Array("]}".utf8), to: layout.recipes + "/unknown.json")
    case "tenMegabyteKey":
      try write(
        Array(#"{""#.utf8) + repeated("k", 10_000_000) + Array(#"": 1}"#.utf8),
        to: layout.recipes + "/key.json")
    case "seventeenMegabytes":
      try write(
        Array(#"{"fruits": []"#.utf8) + repeated(" ", 17 << 20) + Array("}".utf8),
        to: layout.recipes + "/huge.json")
    case "fileNameNotUTF8":
      let name = Array((layout.recipes + "/").utf8) + [0xFF] + Array("bad.json".utf8) + [0]
      let descriptor = name.withUnsafeBytes { raw in
        raw.baseAddress.map {
          open($0.assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
          ?? -1
      }
      guard descriptor >= 0 else { throw Failure.step(name.description) }
      close(descriptor)
    case "hundredBrokenPacks":
      for index in 0..<100 {
        let name = "pack-" + String(1000 + index).dropFirst() + ".json"
        try write(Array(#"{"fruits": ["#.utf8), to: layout.recipes + "/" + name)
      }
    case "symlinkLoop":
      try fileManager.createSymbolicLink(
        atPath: layout.recipes + "/loop.json", withDestinationPath: "loop.json")
    case "danglingSymlink":
      try fileManager.createSymbolicLink(
        atPath: layout.recipes + "/dangling.json", withDestinationPath: "nowhere.json")
    case "readError":
      // Reading address 0 of a process's memory fails with EIO, even for root.
      try fileManager.createSymbolicLink(
        atPath: layout.recipes + "/memory.json", withDestinationPath: "/proc/self/mem")
    case "unreadableFile":
      try write(Array(#"{"fruits": []}"#.utf8), to: layout.recipes + "/secret.json")
      chmod(layout.recipes + "/secret.json", 0)
    case "directoryNamedJSON":
      try fileManager.createDirectory(
        atPath: layout.recipes + "/x.json", withIntermediateDirectories: false)
    case "fifoNamedJSON":
      guard mkfifo(layout.recipes + "/x.json", 0o600) == 0 else { throw Failure.step(name) }
    case "devZero":
      try fileManager.createSymbolicLink(
        atPath: layout.recipes + "/zero.json", withDestinationPath: "/dev/zero")
    case "escapeInFileName":
      try write(Array("{".utf8), to: layout.recipes + "/\u{1B}]0;owned\u{7}.json")
    // MARK: Catalogs
    case "deepCatalog":
      try write(
        Array(#"{"sourceLanguage": "en", "strings": {"a": "#.utf8) + repeated("[", 5000)
          + repeated("]", 5000) + Array("}}".utf8),
        to: layout.localization + "/Deep.xcstrings")
    case "hugeCatalogValue":
      // An argument, 400 KB of escaped percent signs, then one incomplete specifier.
      let value = "%1$@" + String(repeating: "%%", count: 200_000) + "%"
      let document: [String: Any] = [
        "sourceLanguage": "en",
        "strings": [
          "test.huge": [
            "localizations": ["en": ["stringUnit": ["state": "translated", "value": value]]]
          ]
        ],
      ]
      try JSONSerialization.data(withJSONObject: document).write(
        to: URL(fileURLWithPath: layout.localization + "/Huge.xcstrings"))
    case "noCatalogs":
      for file in try fileManager.contentsOfDirectory(atPath: layout.localization) {
        try fileManager.removeItem(atPath: layout.localization + "/" + file)
      }
    case "catalogDirectory":
      try fileManager.createDirectory(
        atPath: layout.localization + "/x.xcstrings", withIntermediateDirectories: false)
    case "catalogSymlinkLoop":
      try fileManager.createSymbolicLink(
        atPath: layout.localization + "/loop.xcstrings", withDestinationPath: "loop.xcstrings")
    case "catalogFIFO":
      guard mkfifo(layout.localization + "/x.xcstrings", 0o600) == 0 else {
        throw Failure.step(name)
      }
    // MARK: Stores
    case "notSQLite":
      try replaceStore(layout, with: Array("juice is not a database\n".utf8))
    case "zeroFilled":
      try replaceStore(layout, with: [UInt8](repeating: 0, count: 4096))
    case "truncatedHeader":
      try replaceStore(layout, with: Array(try storeBytes(layout).prefix(10)))
    case "truncatedToOnePage":
      try replaceStore(layout, with: Array(try storeBytes(layout).prefix(1024)))
    case "truncatedToHalf":
      let bytes = try storeBytes(layout)
      try replaceStore(layout, with: Array(bytes.prefix(bytes.count / 2)))
    case "garbageAfterHeader":
      let bytes = try storeBytes(layout)
      var random = SplitMix64(seed: 7)
      try replaceStore(
        layout,
        with: Array(bytes.prefix(100))
          + (100..<bytes.count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    case "unknownSchemaVersion":
      // `PRAGMA user_version` is the big-endian word at offset 60 of the header.
      try patchStore(layout, at: 60, with: [0, 0, 0, 9])
    case "foreignApplication":
      // `PRAGMA application_id` is the big-endian word at offset 68.
      try patchStore(layout, at: 68, with: [0x12, 0x34, 0x56, 0x78])
    case "unmarkedDatabase":
      try patchStore(layout, at: 68, with: [0, 0, 0, 0])
    case "readOnly":
      chmod(layout.store, 0o444)
    case "storeIsDirectory":
      try removeStore(layout)
      try fileManager.createDirectory(atPath: layout.store, withIntermediateDirectories: false)
    case "storeSymlinkLoop":
      try removeStore(layout)
      try fileManager.createSymbolicLink(atPath: layout.store, withDestinationPath: "store.sqlite")
    case "emptyFile":
      try replaceStore(layout, with: [])
    case "garbageWAL":
      var random = SplitMix64(seed: 11)
      try write(
        (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) },
        to: layout.store + "-wal")
    case "readOnlyDirectory":
      try removeStore(layout)
      chmod(layout.workspace.path("store"), 0o500)
    case "locked":
      return try holdLock(on: layout.store)
    // MARK: Compiled packs and catalogs
    case let step where step.hasPrefix("cache"):
      try damageCache(step, layout)
    default:
      throw Failure.unknownStep(name)
    }
    return nil
  }

  /// The given packs and catalogs whose compiled form is not sound after the command ran:
  /// a damaged one it read must have been written again. A directory in a compiled form's
  /// place, or a file in the cache directory's, cannot be replaced; then none is expected.
  static func unsoundCompiledForms(_ step: String, _ layout: Layout) -> [String] {
    guard step != "cacheIsDirectory", step != "cacheDirectoryIsAFile" else { return [] }
    let cache = CompiledCache(directory: layout.workspace.path("home/.cache/juice-maker/compiled"))
    var unsound: [String] = []
    for (folder, kind) in [
      (layout.recipes, CompiledForm.Kind.pack), (layout.localization, .strings),
    ] {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
        guard let data = FileManager.default.contents(atPath: folder + "/" + name) else {
          unsound.append(name)
          continue
        }
        let bytes = [UInt8](data)
        let read = cache.lookUp(kind, source: (ContentHash.of(bytes), bytes.count)) {
          reader throws(CompiledForm.Damaged) in
          _ = try reader.raw(reader.remaining)
          return true
        }
        if read == nil { unsound.append(name) }
      }
    }
    return unsound
  }

  /// Puts a damaged or hostile file where the compiled form of each given pack and
  /// catalog is looked for, in the cache directory under the workspace's home.
  private static func damageCache(_ step: String, _ layout: Layout) throws {
    let directory = layout.workspace.path("home/.cache/juice-maker/compiled")
    let cache = CompiledCache(directory: directory)
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    if step == "cacheDirectoryIsAFile" {
      try FileManager.default.removeItem(atPath: directory)
      try write(Array("not a directory".utf8), to: directory)
      return
    }
    var files: [(path: String, kind: CompiledForm.Kind, bytes: [UInt8])] = []
    for (folder, kind) in [
      (layout.recipes, CompiledForm.Kind.pack), (layout.localization, .strings),
    ] {
      for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
        files.append((folder + "/" + name, kind, bytes))
      }
    }
    var random = SplitMix64(seed: 22)
    for (index, file) in files.enumerated() {
      let source = (hash: ContentHash.of(file.bytes), size: file.bytes.count)
      let path = cache.path(file.kind, source: source)
      let sound =
        (file.kind == .pack
          ? CompiledForm.compilePack(file.bytes, name: file.path)
          : CompiledForm.compileCatalog(file.bytes, name: file.path)) ?? []
      /// A body of the file's kind, wrapped with the right header and checksum.
      func forged(_ body: (inout CompiledWriter) -> Void) -> [UInt8] {
        var writer = CompiledWriter()
        body(&writer)
        return CompiledForm.file(kind: file.kind, source: source, body: writer.bytes)
      }
      var bytes: [UInt8]
      switch step {
      case "cacheTruncated":
        bytes = Array(sound.prefix(sound.count / 2))
      case "cacheBitFlipped":
        bytes = sound
        bytes[sound.count * 2 / 3] ^= 0x04
      case "cacheEmpty":
        bytes = []
      case "cacheGarbage":
        bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      case "cacheOtherVersion":
        // The layout's version, 1, is written as 0x02 after `JMC` and the kind.
        bytes = sound
        bytes[4] = 0x7E
      case "cacheOtherSource":
        // The next file's sound compiled form, under this file's name.
        let other = files[(index + 1) % files.count]
        bytes =
          (other.kind == .pack
            ? CompiledForm.compilePack(other.bytes, name: other.path)
            : CompiledForm.compileCatalog(other.bytes, name: other.path)) ?? []
      case "cacheForgedCount":
        // A count of 2^50 where the first count is.
        bytes = forged { writer in
          if file.kind == .pack {
            writer.optional(nil)
          } else {
            writer.string("en")
            writer.optional(nil)
          }
          writer.integer(1 << 50)
        }
      case "cacheForgedValues":
        // A fruit whose minimum is above its par, which no pack can say; a catalog whose
        // variations nest 10,000 deep.
        bytes = forged { writer in
          if file.kind == .pack {
            writer.optional(nil)
            writer.integer(1)
            writer.string("kiwi")
            writer.integer(5)
            writer.flag(true)
            writer.integer(9)
            writer.integer(1)
            writer.integer(0)
          } else {
            writer.string("en")
            writer.optional(nil)
            writer.integer(0)
            writer.flag(true)
            writer.integer(1)
            writer.string("fruit.kiwi")
            writer.part { entry in
              entry.optional(nil)
              entry.optional(nil)
              entry.integer(0)
              entry.flag(true)
              entry.integer(1)
              entry.string("en")
              entry.part { localization in
                localization.flag(false)
                localization.flag(false)
                localization.flag(true)
                for _ in 0..<10_000 {
                  localization.flag(true)
                  localization.integer(1)
                  localization.string("other")
                  localization.flag(false)
                  localization.flag(true)
                }
              }
            }
          }
        }
      case "cacheWorldWritable":
        bytes = sound
      case "cacheIsDirectory":
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        continue
      case "cacheIsFIFO":
        guard mkfifo(path, 0o600) == 0 else { throw Failure.step(step) }
        continue
      case "cacheSymlinkLoop":
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
        continue
      case "cacheHuge":
        // 300 MB, sparse.
        guard FileManager.default.createFile(atPath: path, contents: Data(sound)),
          truncate(path, 300 << 20) == 0
        else { throw Failure.step(step) }
        chmod(path, 0o600)
        continue
      default:
        throw Failure.unknownStep(step)
      }
      try write(bytes, to: path)
      chmod(path, step == "cacheWorldWritable" ? 0o666 : 0o600)
    }
  }

  enum Failure: Error {
    case unknownStep(String)
    case step(String)
  }

  // MARK: - Helpers

  private static func repeated(_ text: String, _ count: Int) -> [UInt8] {
    let unit = Array(text.utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(unit.count * count)
    for _ in 0..<count { bytes.append(contentsOf: unit) }
    return bytes
  }

  private static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  private static func storeBytes(_ layout: Layout) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: layout.store)))
  }

  private static func removeStore(_ layout: Layout) throws {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: layout.store + suffix)
    }
  }

  private static func replaceStore(_ layout: Layout, with bytes: [UInt8]) throws {
    try removeStore(layout)
    try write(bytes, to: layout.store)
  }

  private static func patchStore(_ layout: Layout, at offset: Int, with patch: [UInt8]) throws {
    var bytes = try storeBytes(layout)
    bytes.replaceSubrange(offset..<offset + patch.count, with: patch)
    try replaceStore(layout, with: bytes)
  }

  /// Holds the store's write lock from this process (another process than the
  /// command's) until the holder is ended; the held transaction then fails, so the
  /// store is left as it was.
  private static func holdLock(on path: String) throws -> Holder {
    let catalog = try Stores.shippedCatalog()
    let storage = try SQLiteStockStorage(path: path, fruits: catalog.fruits)
    let locked = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
      _ = try? storage.perform(
        StockOperation(editor: "holder", action: .add("kiwi", count: 1)), touching: [0]
      ) { levels in
        locked.signal()
        _ = release.wait(timeout: .now() + 120)
        // A negative level makes the storage roll the transaction back.
        levels[0] = -1
        return .done
      }
      finished.signal()
    }
    thread.start()
    guard locked.wait(timeout: .now() + 30) == .success else {
      release.signal()
      throw Failure.step("locked")
    }
    return Holder(release: release, finished: finished)
  }
}
