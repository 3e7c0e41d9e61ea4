import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory of compiled data files, so that a pack or string catalog read before is read
/// again without parsing.
///
/// ```swift
/// let cache = CompiledCache(directory: home + "/.cache/juice-maker/compiled")
/// let catalog = try Catalog.load([.file("Recipes/juices.json")], cache: cache)
/// ```
///
/// A file's compiled form is found by the ``ContentHash`` of the file's contents, its size,
/// and the layout's version, so an edited file is compiled again and a file restored to
/// earlier contents finds its old form. A file is compiled only when it loads without a
/// problem; a file with problems is parsed, and its problems reported, every time.
///
/// Nothing read from the directory is trusted blindly:
/// - A compiled file is read only when it is a regular file, not a link, owned by the user,
///   and writable by nobody else, in a directory that is the same; otherwise the cache is
///   not used at all.
/// - Its header must name the kind, version, content hash and size looked for, and its body
///   must match the hash in the header. Every read of the body is checked against its end,
///   and every value goes through the checks the JSON decoders make.
/// - Anything else is a miss: the file is parsed and its compiled form written again.
///
/// A form is written on another thread while the load goes on; a program waits for them with
/// ``finishWriting()`` before it exits. A compiled file is read with `read(2)`, not mapped:
/// a file cut short under a mapping would stop the program with `SIGBUS`. It is written to a temporary file of mode 0600 and renamed
/// into place, so a reader sees a whole file or none. Writing is best effort: a directory that
/// cannot be made or written leaves every load parsing. The directory keeps at most
/// ``maximumFiles`` files, the least recently written going first.
public struct CompiledCache: Sendable {
  /// The directory, such as `~/.cache/juice-maker/compiled`.
  public let directory: String

  /// The most compiled files kept.
  public static let maximumFiles = 64

  /// The largest compiled file read.
  static let maximumSize = 256 << 20

  /// A cache in a directory, made with mode 0700 when first written to.
  public init(directory: String) {
    self.directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
  }

  /// The path of the compiled form of a file with these contents.
  package func path(_ kind: CompiledForm.Kind, source: (hash: UInt64, size: Int)) -> String {
    directory + "/" + String(decoding: CompiledForm.hex(source.hash), as: UTF8.self) + "-"
      + String(source.size) + "." + kind.fileExtension + String(CompiledForm.formatVersion)
  }

  /// Reads the compiled form of a file with these contents, if the cache holds a sound one.
  ///
  /// - Parameters:
  ///   - kind: What was compiled.
  ///   - source: The content hash and size of the file.
  ///   - decode: Reads the body; throws `Damaged` for anything it cannot take.
  /// - Returns: What `decode` read, or `nil` for a miss.
  package func lookUp<Value>(
    _ kind: CompiledForm.Kind, source: (hash: UInt64, size: Int),
    decode: (inout CompiledReader) throws(CompiledForm.Damaged) -> Value
  ) -> Value? {
    guard Self.isPrivate(directory, directory: true) else { return nil }
    let descriptor = open(
      path(kind, source: source), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, Self.isPrivate(status, directory: false),
      status.st_size > 0, Int(status.st_size) <= Self.maximumSize
    else { return nil }
    let size = Int(status.st_size)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
    defer { buffer.deallocate() }
    // Touched here, so its pages are made before `read` copies into them: a page made
    // inside `read` costs more, most of all while the other loader reads too.
    buffer.initializeMemory(as: UInt8.self, repeating: 0)
    var filled = 0
    while filled < size {
      let count = read(descriptor, buffer.baseAddress.map { $0 + filled }, size - filled)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      filled += count
    }
    do throws(CompiledForm.Damaged) {
      var body = try CompiledForm.body(
        of: UnsafeRawBufferPointer(buffer), kind: kind, source: source)
      let value = try decode(&body)
      guard body.isAtEnd else { return nil }
      return value
    } catch {
      return nil
    }
  }

  /// Writes the compiled form of a file with these contents, replacing any there.
  ///
  /// - Parameters:
  ///   - kind: What was compiled.
  ///   - source: The content hash and size of the file.
  ///   - body: The compiled contents.
  package func store(_ kind: CompiledForm.Kind, source: (hash: UInt64, size: Int), body: [UInt8]) {
    guard Self.makeDirectory(directory), Self.isPrivate(directory, directory: true) else { return }
    let header = CompiledForm.header(kind: kind, source: source, body: body)
    let final = path(kind, source: source)
    let temporary =
      directory + "/.tmp-" + String(getpid()) + "-" + String(UInt32.random(in: 0...UInt32.max))
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { return }
    let complete = Self.writeAll(header, to: descriptor) && Self.writeAll(body, to: descriptor)
    guard close(descriptor) == 0, complete, rename(temporary, final) == 0 else {
      unlink(temporary)
      return
    }
    prune()
  }

  /// Compiles and writes a form on another thread, so the command goes on meanwhile; call
  /// ``finishWriting()`` before the program exits.
  ///
  /// - Parameters:
  ///   - kind: What is compiled.
  ///   - source: The content hash and size of the file.
  ///   - body: Makes the compiled contents.
  package func storeLater(
    _ kind: CompiledForm.Kind, source: (hash: UInt64, size: Int),
    body: @escaping @Sendable () -> [UInt8]
  ) {
    let cache = self
    Self.writing.async(group: Self.pending) {
      cache.store(kind, source: source, body: body())
    }
  }

  /// Writes all of `bytes` to `descriptor`; `false` when it could not.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        let count = write(
          descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
      }
      return true
    }
  }

  /// Waits for the forms ``storeLater(_:source:body:)`` is writing.
  public static func finishWriting() {
    pending.wait()
  }

  private static let writing = DispatchQueue(label: "juice-maker.compiled-cache")
  private static let pending = DispatchGroup()

  /// Removes the least recently written files beyond ``maximumFiles``, and temporary files
  /// an interrupted write left an hour ago or more.
  private func prune() {
    guard let stream = opendir(directory) else { return }
    var files: [(path: String, written: Int)] = []
    let hourAgo = Int(time(nil)) - 3600
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != ".", name != ".." else { continue }
      let path = directory + "/" + name
      var status = stat()
      guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
      if name.hasPrefix(".tmp-") {
        if Int(status.st_mtim.tv_sec) < hourAgo { unlink(path) }
        continue
      }
      files.append((path, Int(status.st_mtim.tv_sec) * 1_000_000_000 + status.st_mtim.tv_nsec))
    }
    closedir(stream)
    guard files.count > Self.maximumFiles else { return }
    for file in files.sorted(by: { $0.written < $1.written }).prefix(
      files.count - Self.maximumFiles)
    {
      unlink(file.path)
    }
  }

  /// Makes a directory and its parents, each new one with mode 0700.
  private static func makeDirectory(_ path: String) -> Bool {
    var status = stat()
    if stat(path, &status) == 0 { return (status.st_mode & S_IFMT) == S_IFDIR }
    let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    if !parent.isEmpty, !makeDirectory(parent) { return false }
    return mkdir(path, 0o700) == 0 || errno == EEXIST
  }

  /// Whether a path is the user's own, not a link, and writable by nobody else.
  private static func isPrivate(_ path: String, directory: Bool) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && isPrivate(status, directory: directory)
  }

  private static func isPrivate(_ status: stat, directory: Bool) -> Bool {
    (status.st_mode & S_IFMT) == (directory ? S_IFDIR : S_IFREG) && status.st_uid == geteuid()
      && (status.st_mode & 0o022) == 0
  }
}
