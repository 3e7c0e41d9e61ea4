import Dispatch
public import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Loading a recipes directory

extension Catalog {
  /// Loads every `*.json` pack directly inside a directory, merged in file-name order.
  ///
  /// Every pack is read even after a problem is found, and every problem is
  /// reported, each naming its file, JSON path and reason.
  ///
  /// - Parameter directory: The recipes directory.
  /// - Returns: The merged catalog.
  /// - Throws: `CatalogError` listing every problem.
  /// - Complexity: O(*n*) in the total size of the packs; many packs are read on
  ///   all cores.
  public static func load(from directory: URL) throws(CatalogError) -> Catalog {
    try load(paths: packFiles(in: directory))
  }

  /// The `*.json` pack files directly inside a directory, as paths in file-name order.
  ///
  /// Hidden files are left out. Use it to layer directories: list each, let a later
  /// directory's pack replace an earlier one of the same name, and load the result with
  /// ``load(_:)``.
  ///
  /// - Parameter directory: The recipes directory.
  /// - Returns: The paths of the packs.
  /// - Throws: `CatalogError` when the directory is missing, cannot be listed, holds no
  ///   pack, or holds a pack whose name is not UTF-8 (such a file cannot be opened).
  public static func packFiles(in directory: URL) throws(CatalogError) -> [String] {
    let directoryPath = directory.path
    // stat(2) rather than FileManager, which costs a start-up of its own.
    var status = stat()
    guard stat(directoryPath, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
      throw CatalogError(problems: [.init(file: directoryPath, path: "", reason: .directoryMissing)]
      )
    }
    let names = try entryNames(atPath: directoryPath)
    let packNames = names.filter {
      $0.first != UInt8(ascii: ".") && $0.count > 5 && $0.suffix(5).elementsEqual(".json".utf8)
    }
    .sorted { $0.lexicographicallyPrecedes($1) }
    guard !packNames.isEmpty else {
      throw CatalogError(problems: [.init(file: directoryPath, path: "", reason: .noPacks)])
    }
    // Paths rather than URLs: building 10,000 URLs costs more than reading the files.
    let prefix = directoryPath.hasSuffix("/") ? directoryPath : directoryPath + "/"
    var paths: [String] = []
    var misnamed: [CatalogError.Problem] = []
    for bytes in packNames {
      if let name = String(validating: bytes, as: UTF8.self) {
        paths.append(prefix + name)
      } else {
        // Such a name cannot round-trip through `String`, so the file cannot be opened.
        let shown = directory.appendingPathComponent(
          String(decoding: bytes, as: UTF8.self), isDirectory: false)
        misnamed.append(
          .init(
            file: shown.path, path: "",
            reason: .unreadable(detail: "the file name is not valid UTF-8")))
      }
    }
    guard misnamed.isEmpty else { throw CatalogError(problems: misnamed) }
    return paths
  }

  /// The names of the entries of a directory, as the bytes the file system holds.
  ///
  /// `FileManager` would replace bytes that are not UTF-8, naming a file that does
  /// not exist; this keeps them so such a name can be reported as what it is.
  package static func entryNames(atPath path: String) throws(CatalogError) -> [[UInt8]] {
    func failure() -> CatalogError {
      CatalogError(
        problems: [
          .init(file: path, path: "", reason: .unreadable(detail: String(cString: strerror(errno))))
        ])
    }
    guard let stream = opendir(path) else { throw failure() }
    defer { closedir(stream) }
    var names: [[UInt8]] = []
    while true {
      errno = 0
      guard let entry = readdir(stream) else {
        if errno != 0 { throw failure() }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
    }
  }

  /// Loads the given pack files, merged in the order given.
  ///
  /// - Parameter packs: The pack files.
  /// - Returns: The merged catalog.
  /// - Throws: `CatalogError` listing every problem.
  public static func load(packs: [URL]) throws(CatalogError) -> Catalog {
    try load(paths: packs.map(\.path))
  }

  /// Loads the pack files at the given paths, merged in the order given.
  static func load(paths: [String]) throws(CatalogError) -> Catalog {
    try load(paths.map(PackSource.file))
  }

  /// Loads packs from files and from memory, merged in the order given.
  ///
  /// Packs in memory, such as packs compiled into a program, are decoded as strictly as
  /// files, and problems name them by their `name`.
  ///
  /// - Parameters:
  ///   - sources: The packs.
  ///   - cache: Where the packs' compiled forms are kept between loads, if anywhere: a pack
  ///     read before is then read without parsing. A pack read for the first time is
  ///     compiled into it on another thread: call ``CompiledCache/finishWriting()`` before
  ///     the program exits. See ``CompiledCache``.
  /// - Returns: The merged catalog.
  /// - Throws: `CatalogError` listing every problem.
  public static func load(_ sources: [PackSource], cache: CompiledCache? = nil)
    throws(CatalogError) -> Catalog
  {
    let results = LockedValue(
      [(Pack, [CatalogError.Problem])?](repeating: nil, count: sources.count))
    let decode: @Sendable (Int) -> Void = { index in
      let outcome = Catalog.decode(sources[index], cache: cache)
      results.withLock { $0[index] = outcome }
    }
    if sources.count >= 64 {
      DispatchQueue.concurrentPerform(iterations: sources.count, execute: decode)
    } else {
      for index in sources.indices { decode(index) }
    }
    let decoded = results.withLock { $0.compactMap { $0 } }
    return try Catalog(
      merging: decoded.map(\.0), problems: decoded.flatMap(\.1), paths: sources.map(\.path))
  }

  /// One pack, from its compiled form when there is a sound one, else parsed, and then
  /// compiled into the cache when it has no problem.
  private static func decode(_ source: PackSource, cache: CompiledCache?) -> (
    Pack, [CatalogError.Problem]
  ) {
    let name = source.path
    let contents = source.contents(
      .pack, cache: cache,
      decode: { reader throws(CompiledForm.Damaged) in try Pack(compiled: &reader, file: name) })
    switch contents {
    case .compiled(let pack):
      return (pack, [])
    case .unreadable(let reason):
      return (Pack(file: name), [.init(file: name, path: "", reason: reason)])
    case .bytes(let bytes, let key):
      let outcome = PackDecoder.decode(bytes, file: name)
      if let cache, let key, outcome.1.isEmpty {
        let pack = outcome.0
        cache.storeLater(.pack, source: key) { pack.compiled(capacity: key.size) }
      }
      return outcome
    }
  }

  /// The largest pack file read, in bytes: far beyond any real pack, small enough
  /// that a hostile one cannot exhaust memory.
  package static let maximumPackSize = 16 << 20

  /// Reads a whole regular file with POSIX calls, so failures keep the system's reason.
  ///
  /// The file is opened without blocking and must be a regular file, so a FIFO, a
  /// device such as `/dev/zero` or a directory named like a pack is refused instead
  /// of hanging or reading forever; no more than `maximumPackSize` bytes are read.
  package static func readFile(atPath path: String) -> FileContents {
    // The kind of file first, so that a device is named as such even when it may not
    // be opened; checked again once open, in case the file was swapped.
    var status = stat()
    guard stat(path, &status) == 0 else {
      return .unreadable(.unreadable(detail: String(cString: strerror(errno))))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      return .unreadable(.notAFile)
    }
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      return .unreadable(.unreadable(detail: String(cString: strerror(errno))))
    }
    defer { close(descriptor) }
    guard fstat(descriptor, &status) == 0 else {
      return .unreadable(.unreadable(detail: String(cString: strerror(errno))))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      return .unreadable(.notAFile)
    }
    let tooLarge = FileContents.unreadable(
      .unreadable(detail: "the file is larger than \(maximumPackSize >> 20) MiB"))
    guard Int(status.st_size) <= maximumPackSize else { return tooLarge }
    // One byte more than the limit, so a file that grows past it is noticed.
    let capacity = maximumPackSize + 1
    var bytes = [UInt8](repeating: 0, count: min(max(Int(status.st_size), 0) + 1, capacity))
    var filled = 0
    while true {
      if filled == bytes.count {
        guard bytes.count < capacity else { return tooLarge }
        bytes.append(
          contentsOf: repeatElement(0, count: min(max(4096, bytes.count), capacity - bytes.count)))
      }
      let count = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { read(descriptor, $0 + filled, buffer.count - filled) } ?? 0
      }
      if count < 0 {
        if errno == EINTR { continue }
        return .unreadable(.unreadable(detail: String(cString: strerror(errno))))
      }
      if count == 0 { break }
      filled += count
    }
    bytes.removeLast(bytes.count - filled)
    return .bytes(bytes)
  }

}

/// A file's bytes, or why it could not be read.
package enum FileContents {
  case bytes([UInt8])
  case unreadable(CatalogError.Reason)
}

/// Where one pack's or string catalog's bytes come from.
public enum PackSource: Sendable {
  /// A file, read when the catalog is loaded.
  case file(String)
  /// Bytes in memory, such as a pack published to a store; `name` is the path problems
  /// name it by (`<store>/Seasonal.json`).
  case bytes([UInt8], name: String)
  /// A file compiled into a program at build time: its compiled form, read in place without
  /// parsing, and its text, parsed only should the compiled form not read. The build plugin
  /// of the `juice-maker` tool writes them.
  case compiled(StaticString, name: String, text: String)

  /// The file's path, or the name of bytes in memory.
  public var path: String {
    switch self {
    case .file(let path): path
    case .bytes(_, let name): name
    case .compiled(_, let name, _): name
    }
  }
}
