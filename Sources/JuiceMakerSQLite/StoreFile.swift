import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store file on disk: created with mode 0600 in directories created with mode
/// 0700, before SQLite ever opens it, and only when the storage may create its store.
///
/// SQLite creates the `-wal` and `-shm` files beside it with the store file's mode,
/// so they are 0600 too.
enum StoreFile {
  /// The mode of a store file the storage creates: read and write for the owner.
  static let fileMode: mode_t = 0o600
  /// The mode of each directory the storage creates: the owner only.
  static let directoryMode: mode_t = 0o700

  /// Makes sure a writable regular file exists at `path`, creating it (and any
  /// missing parent directories) when `creating` allows. Existing files and
  /// directories keep their modes.
  ///
  /// With `.never`, nothing is created: a path that names nothing (a missing file, a
  /// missing directory on the way, a dangling symbolic link) is `.missing`.
  ///
  /// - Throws: `StockStorageError.missing` for a path that names nothing under
  ///   `.never`; `.unavailable` when the file or a directory cannot be created, or the
  ///   file is read-only; `.invalid` when the path names something other than a
  ///   regular file.
  static func prepare(_ path: String, creating: StoreCreation) throws(StockStorageError) {
    guard !path.isEmpty else {
      throw unavailable(path, "the store path is empty")
    }
    if creating != .never {
      try create(path)
    }
    var status = stat()
    guard stat(path, &status) == 0 else {
      let reason = errno
      guard reason != ENOENT || creating != .never else {
        throw .missing(
          store: path,
          cause: StorageFailure(code: "", message: describe(reason), purpose: "opening the store"))
      }
      throw unavailable(path, "cannot read the store file: \(describe(reason))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw invalid(path, "it is not a regular file")
    }
    // Checked by mode too, since `access` lets the superuser write anything.
    guard status.st_mode & 0o222 != 0, access(path, R_OK | W_OK) == 0 else {
      throw unavailable(path, "the store file is read-only")
    }
    // SQLite takes a file shorter than a page for an empty database and would write
    // over it; only an empty file (a new store) may lack the header.
    if status.st_size > 0, try !startsWithHeader(path) {
      throw invalid(path, "the file is not an SQLite database")
    }
  }

  /// Creates the file with mode 0600, and its missing parent directories, unless it
  /// exists.
  private static func create(_ path: String) throws(StockStorageError) {
    try createParentDirectories(of: path)
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
    if descriptor >= 0 {
      // The umask may have taken bits away; set exactly 0600.
      let changed = fchmod(descriptor, fileMode) == 0
      let reason = errno
      close(descriptor)
      guard changed else {
        throw unavailable(path, "cannot set the store file's mode: \(describe(reason))")
      }
      // So that the new file's name survives a power loss, not only its contents.
      syncDirectory(parent(of: path))
    } else if errno != EEXIST {
      throw unavailable(path, "cannot create the store file: \(describe(errno))")
    }
  }

  /// The first 16 bytes of every SQLite database file.
  private static let header = Array("SQLite format 3\0".utf8)

  private static func startsWithHeader(_ path: String) throws(StockStorageError) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw unavailable(path, "cannot read the store file: \(describe(errno))")
    }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: header.count)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return count == header.count && bytes == header
  }

  /// Creates each missing directory on the way to `path` with mode 0700.
  private static func createParentDirectories(of path: String) throws(StockStorageError) {
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    var directory = path.hasPrefix("/") ? "/" : ""
    for component in components where !component.isEmpty {
      directory += component
      if mkdir(directory, directoryMode) == 0 {
        guard chmod(directory, directoryMode) == 0 else {
          throw unavailable(
            path, "cannot set the mode of directory \(directory): \(describe(errno))")
        }
        syncDirectory(parent(of: directory))
      } else if errno != EEXIST {
        throw unavailable(path, "cannot create directory \(directory): \(describe(errno))")
      }
      directory += "/"
    }
  }

  /// The directory holding `path`: `.` for a bare name, `/` for a name in the root.
  private static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Flushes a directory's entries to disk; best effort, as some file systems refuse.
  private static func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  private static func unavailable(_ path: String, _ message: String) -> StockStorageError {
    .unavailable(
      store: path,
      cause: StorageFailure(code: "", message: message, purpose: "preparing the store file"))
  }

  private static func invalid(_ path: String, _ message: String) -> StockStorageError {
    .invalid(
      store: path,
      cause: StorageFailure(code: "", message: message, purpose: "preparing the store file"))
  }
}
