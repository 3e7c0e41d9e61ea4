import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite
import TemporaryPostgres
import Testing

/// A kind of storage the conformance suite runs against: add one here, and every test
/// of `StorageConformanceTests` runs against it.
struct StorageUnderTest: Sendable, CustomTestStringConvertible {
  /// The storage's name in test results.
  let name: String
  /// Creates a fresh store holding the fruits.
  let makeStore: @Sendable (_ fruits: [Fruit]) throws -> StoreUnderTest

  var testDescription: String { name }

  /// Every storage the suite runs against.
  static let all: [StorageUnderTest] =
    [.memory, .memoryJournalingOrders, .sqlite]
    + (TemporaryServer.isInstalled || TemporaryServer.isRequired ? [.postgres] : [])

  /// The in-memory storage: one storage object, shared.
  static let memory = StorageUnderTest(name: "memory") { fruits in
    let storage = InMemoryStockStorage(
      fruits: fruits.map(\.id), levels: fruits.map(\.initialStock))
    return StoreUnderTest(open: { storage }, locked: nil, cleanup: {})
  }

  /// The in-memory storage that journals every order, as persistent storages do.
  static let memoryJournalingOrders = StorageUnderTest(name: "memory, orders journaled") {
    fruits in
    let storage = InMemoryStockStorage(
      fruits: fruits.map(\.id), levels: fruits.map(\.initialStock), journalsOrders: true)
    return StoreUnderTest(open: { storage }, locked: nil, cleanup: {})
  }

  /// The SQLite storage: each `open()` is another connection to one file.
  static let sqlite = StorageUnderTest(name: "sqlite") { fruits in
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerStorageConformanceTests-\(UUID().uuidString)").path
    let path = directory + "/store.sqlite"
    _ = try SQLiteStockStorage(path: path, fruits: fruits, durability: .normal)
    return StoreUnderTest(
      open: { try SQLiteStockStorage(path: path, fruits: fruits, durability: .normal) },
      locked: { body in
        // Another connection holds the write lock inside an operation, while a storage
        // with a short busy timeout tries to work.
        let holder = try SQLiteStockStorage(path: path, fruits: fruits, durability: .normal)
        let impatient = try SQLiteStockStorage(
          path: path, fruits: fruits, durability: .normal, busyTimeout: .milliseconds(50))
        try StoreUnderTest.holdingLock(of: holder, while: { try body(impatient) })
      },
      cleanup: { try? FileManager.default.removeItem(atPath: directory) })
  }
}

extension StorageUnderTest {
  /// One throwaway server for the suite, started on first use; under `CI=true` a missing
  /// PostgreSQL fails these tests instead of leaving them out.
  private static let server = Result { () throws(TemporaryServer.Unavailable) in
    try TemporaryServer.start()
  }

  /// The PostgreSQL storage: a new database per store, each `open()` another connection.
  static let postgres = StorageUnderTest(name: "postgres") { fruits in
    let server = try server.get()
    let database = try server.createDatabase()
    let uri = server.socketURI(database: database)
    _ = try PostgresStockStorage(uri: uri, fruits: fruits)
    return StoreUnderTest(
      open: { try PostgresStockStorage(uri: uri, fruits: fruits) },
      locked: { body in
        // Another session holds the stock table locked, while a storage that waits at
        // most 50 ms for a lock tries to work.
        let impatient = try PostgresStockStorage(
          uri: uri + "&options=-c%20lock_timeout%3D50", fruits: fruits)
        let command = server.psqlCommand(
          "BEGIN; LOCK TABLE stock IN EXCLUSIVE MODE; SELECT pg_sleep(60)", database: database)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: command[0])
        holder.arguments = Array(command.dropFirst())
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { holder.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while try server.sql(
          "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            + "WHERE c.relname = 'stock' AND l.mode = 'ExclusiveLock' AND l.granted",
          database: database) == "0"
        {
          guard Date() < deadline else { throw StoreUnderTest.HoldFailure() }
          Thread.sleep(forTimeInterval: 0.02)
        }
        try body(impatient)
      },
      cleanup: {})
  }
}

/// One store under test, which may be opened several times.
final class StoreUnderTest: Sendable {
  /// Opens a storage over the store: another connection where the storage has them,
  /// else the same storage.
  let open: @Sendable () throws -> any StockStorage
  /// Runs the body with a storage over the store that cannot work now (its store is
  /// held locked); `nil` for a storage that cannot fail.
  let locked: (@Sendable (_ body: (any StockStorage) throws -> Void) throws -> Void)?
  private let cleanup: @Sendable () -> Void

  init(
    open: @escaping @Sendable () throws -> any StockStorage,
    locked: (@Sendable (_ body: (any StockStorage) throws -> Void) throws -> Void)?,
    cleanup: @escaping @Sendable () -> Void
  ) {
    self.open = open
    self.locked = locked
    self.cleanup = cleanup
  }

  deinit {
    cleanup()
  }

  /// Runs `body` while `holder` is inside an operation whose body waits; the held
  /// operation then leaves a negative level, so the storage keeps nothing of it.
  static func holdingLock(of holder: any StockStorage, while body: () throws -> Void) throws {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      _ = try? holder.perform(
        StockOperation(editor: "holder", action: .add(holder.fruits[0], count: 1)),
        touching: [0]
      ) { levels in
        entered.signal()
        _ = release.wait(timeout: .now() + 30)
        levels[0] = -1
        return .done
      }
      finished.signal()
    }.start()
    guard entered.wait(timeout: .now() + 30) == .success else {
      release.signal()
      throw HoldFailure()
    }
    defer {
      release.signal()
      _ = finished.wait(timeout: .now() + 30)
    }
    try body()
  }

  struct HoldFailure: Error {}
}
