import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files an open store uses, by device and inode: the store file, its `-wal` and its
/// `-shm`, as they were right after the connection opened them.
///
/// SQLite keeps each of them open by descriptor, so a file deleted, renamed or replaced
/// at its path goes on being read and written while other processes open whatever the
/// path names now ("How To Corrupt An SQLite Database File", unlinking or renaming a
/// database file while it is open). Orders then land in a file no one will open again.
/// `check()` compares the path's files with the ones remembered; while the connection
/// keeps its files open no other file can take their inodes, so a match means the path
/// names the files the connection uses.
struct StoreFiles {
  /// One file's identity.
  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  /// Which of the store's files a problem concerns.
  enum Role: String {
    case store = "store file"
    case wal = "-wal file"
    case shm = "-shm file"

    /// The file's path for the store at `path`.
    func path(of store: String) -> String {
      switch self {
      case .store: store
      case .wal: store + "-wal"
      case .shm: store + "-shm"
      }
    }
  }

  /// The store file.
  let path: String
  /// Each file's identity at open; a file that did not exist then is not checked.
  private let identities: [(role: Role, identity: Identity)]

  /// Remembers the files the connection opened, once its first read has opened the
  /// `-wal` and `-shm`.
  ///
  /// SQLite's own check that the store file is still the one at the path
  /// (`Database.hasMoved`) confirms that the remembered store file is the one the
  /// connection has open.
  ///
  /// - Throws: `StockStorageError.replaced` when the store file moved while it was opened.
  init(_ database: Database) throws(StockStorageError) {
    let path = database.path
    self.path = path
    var identities: [(role: Role, identity: Identity)] = []
    for role in [Role.store, .wal, .shm] {
      if let identity = Self.identity(of: role.path(of: path)) {
        identities.append((role, identity))
      }
    }
    self.identities = identities
    if database.hasMoved || identities.first?.role != .store {
      throw Self.replaced(path, "the store file was replaced or removed while it was opened")
    }
  }

  /// Checks that the path still names the files the connection uses.
  ///
  /// - Throws: `StockStorageError.replaced` naming the first file that was removed,
  ///   renamed or replaced.
  /// - Complexity: Three `stat` calls.
  func check() throws(StockStorageError) {
    for (role, identity) in identities {
      switch Self.identity(of: role.path(of: path)) {
      case identity: continue
      case nil:
        throw Self.replaced(
          path,
          "the \(role.rawValue) was replaced or removed while open (its path names nothing now)")
      case .some:
        throw Self.replaced(
          path,
          "the \(role.rawValue) was replaced or removed while open (its path names another file now)"
        )
      }
    }
  }

  private static func identity(of path: String) -> Identity? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// The error of a store whose path no longer names its files.
  static func replaced(_ path: String, _ what: String) -> StockStorageError {
    .replaced(
      store: path,
      cause: StorageFailure(
        code: "",
        message: what
          + "; this process writes nothing more to it: start it again to use the file the path names now",
        purpose: "checking the store's files"))
  }
}
