import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A storage whose store file, `-wal` or `-shm` is removed, renamed or replaced while it
/// is open stops: every operation throws `.replaced`, and an entry that may have been
/// committed to a file the path no longer names is never returned.
struct StoreFilesTests {
  /// The files as the path names them, changed under an open storage.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case removeSHM, removeWAL, renameStore, replaceWithCopy

    var testDescription: String { rawValue }

    func apply(to path: String) {
      switch self {
      case .removeSHM: unlink(path + "-shm")
      case .removeWAL: unlink(path + "-wal")
      case .renameStore: rename(path, path + ".moved")
      case .replaceWithCopy:
        try? FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
        rename(path + ".copy", path)
      }
    }
  }

  @Test(arguments: Change.allCases)
  func everyOperationThrowsReplacedFromThenOn(_ change: Change) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    try storage.perform(Fixtures.order("kiwi-juice")) { levels in
      levels[2] -= 3
      return .done
    }
    change.apply(to: path)
    #expect(throws: StockStorageError.self) {
      try storage.perform(Fixtures.order("kiwi-juice")) { levels in
        levels[2] -= 3
        return .done
      }
    }
    expectReplaced(path) { _ = try storage.levels() }
    expectReplaced(path) { _ = try storage.journal() }
    expectReplaced(path) { try storage.waitForChanges(timeout: .zero) }
  }

  private func expectReplaced(
    _ path: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () throws -> Void
  ) {
    do {
      try operation()
      Issue.record("an operation on a replaced store succeeded", sourceLocation: sourceLocation)
    } catch {
      guard case .replaced(let store, let cause) = error as? StockStorageError else {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
      }
      #expect(store == path, sourceLocation: sourceLocation)
      #expect(
        cause.message.contains("replaced or removed while open"), "\(cause)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func aStoreRenamedBackStaysStopped() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    rename(path, path + ".moved")
    #expect(throws: StockStorageError.self) { try storage.levels() }
    rename(path + ".moved", path)
    #expect(throws: StockStorageError.self) { try storage.levels() }
  }

  /// The store is renamed inside the transaction, after the check before the write: the
  /// commit goes to the renamed file, and the storage says it cannot tell rather than
  /// returning the entry.
  @Test func aStoreRenamedBeforeTheCommitIsNotAcknowledged() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let storage = try SQLiteStockStorage(path: path, fruits: Fixtures.fruits)
    let operation = Fixtures.order("kiwi-juice")
    do {
      try storage.perform(operation) { levels in
        rename(path, path + ".moved")
        levels[2] -= 3
        return .done
      }
      Issue.record("an entry committed to a renamed store was returned")
    } catch {
      guard case .outcomeUnknown(let store, let id, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(store == path)
      #expect(id == operation.id)
    }
  }
}
