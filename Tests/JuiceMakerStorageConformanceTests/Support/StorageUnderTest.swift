import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite
import JuiceMakerStorageTesting
import TemporaryPostgres
import Testing

/// The storages of this package, each run through the public conformance suite: add one
/// here, and every check of `StockStorageConformance` runs against it.
enum StorageUnderTest {
  /// Every storage the suite runs against.
  static let all: [StockStorageConformance] =
    [memory, memoryJournalingOrders, sqlite]
    + (TemporaryServer.isInstalled || TemporaryServer.isRequired ? [postgres] : [])

  /// The in-memory storage: one storage object, shared.
  static let memory = StockStorageConformance(
    name: "memory", journalsEveryOrder: false, canFail: false
  ) { fruits in
    let storage = InMemoryStockStorage(
      fruits: fruits.map(\.id), levels: fruits.map(\.initialStock))
    return ConformanceStore(open: { storage }, locked: nil, cleanup: {})
  }

  /// The in-memory storage that journals every order, as persistent storages do.
  static let memoryJournalingOrders = StockStorageConformance(
    name: "memory, orders journaled", canFail: false
  ) { fruits in
    let storage = InMemoryStockStorage(
      fruits: fruits.map(\.id), levels: fruits.map(\.initialStock), journalsOrders: true)
    return ConformanceStore(open: { storage }, locked: nil, cleanup: {})
  }

  /// The SQLite storage: each `open()` is another connection to one file.
  static let sqlite = StockStorageConformance(name: "sqlite", holdsAMenu: true) { fruits in
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerStorageConformanceTests-\(UUID().uuidString)").path
    let path = directory + "/store.sqlite"
    _ = try SQLiteStockStorage(path: path, fruits: fruits, durability: .normal)
    return ConformanceStore(
      open: { try SQLiteStockStorage(path: path, fruits: fruits, durability: .normal) },
      locked: { body in
        // Another connection holds the write lock inside an operation, while a storage
        // with a short busy timeout tries to work.
        let holder = try SQLiteStockStorage(path: path, fruits: fruits, durability: .normal)
        let impatient = try SQLiteStockStorage(
          path: path, fruits: fruits, durability: .normal, busyTimeout: .milliseconds(50))
        try ConformanceStore.holdingLock(of: holder, while: { try body(impatient) })
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
  static let postgres = StockStorageConformance(name: "postgres", holdsAMenu: true) { fruits in
    let server = try server.get()
    let database = try server.createDatabase()
    let uri = server.socketURI(database: database)
    _ = try PostgresStockStorage(uri: uri, fruits: fruits)
    return ConformanceStore(
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
          guard Date() < deadline else { throw ConformanceStore.HoldFailure() }
          Thread.sleep(forTimeInterval: 0.02)
        }
        try body(impatient)
      },
      cleanup: {})
  }
}
