public import Foundation

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
    let directoryPath = directory.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directoryPath, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw CatalogError(problems: [.init(file: directoryPath, path: "", reason: .directoryMissing)]
      )
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directoryPath)
    } catch {
      throw CatalogError(
        problems: [
          .init(file: directoryPath, path: "", reason: .unreadable(detail: Self.describe(error)))
        ])
    }
    let packNames = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    guard !packNames.isEmpty else {
      throw CatalogError(problems: [.init(file: directoryPath, path: "", reason: .noPacks)])
    }
    let urls = packNames.map { directory.appendingPathComponent($0, isDirectory: false) }
    return try load(packs: urls)
  }

  /// Loads the given pack files, merged in the order given.
  ///
  /// - Parameter packs: The pack files.
  /// - Returns: The merged catalog.
  /// - Throws: `CatalogError` listing every problem.
  public static func load(packs: [URL]) throws(CatalogError) -> Catalog {
    let results = LockedResults<(Pack, [CatalogError.Problem])>(count: packs.count)
    let decode: @Sendable (Int) -> Void = { index in
      let url = packs[index]
      let file = url.path
      let outcome: (Pack, [CatalogError.Problem])
      switch readFile(atPath: file) {
      case .bytes(let bytes):
        outcome = PackDecoder.decode(bytes, file: file)
      case .unreadable(let reason):
        outcome = (Pack(file: file), [.init(file: file, path: "", reason: reason)])
      }
      results.set(outcome, at: index)
    }
    if packs.count >= 64 {
      DispatchQueue.concurrentPerform(iterations: packs.count, execute: decode)
    } else {
      for index in packs.indices { decode(index) }
    }
    let decoded = results.values()
    return try Catalog(
      merging: decoded.map(\.0), problems: decoded.flatMap(\.1), packs: packs)
  }

  /// Reads a whole file with POSIX calls, so failures keep the system's reason.
  static func readFile(atPath path: String) -> FileContents {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return .unreadable(.unreadable(detail: String(cString: strerror(errno))))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      return .unreadable(.unreadable(detail: String(cString: strerror(errno))))
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      return .unreadable(.notAFile)
    }
    var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0))
    var filled = 0
    while true {
      if filled == bytes.count {
        bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count)))
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

  private static func describe(_ error: any Error) -> String {
    (error as NSError).localizedDescription
  }
}

/// A file's bytes, or why it could not be read.
enum FileContents {
  case bytes([UInt8])
  case unreadable(CatalogError.Reason)
}
