import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite

/// What every command needs: the parsed command line, the data, and the streams.
struct Context {
  let global: GlobalOptions
  let environment: [String: String]
  /// The string catalogs of every layer, as loaded into `strings`.
  let catalogFiles: [DataLayers.File]
  let strings: StringCatalog
  let texts: Texts
  let output: any TextOutput
  let errorOutput: any TextOutput

  var json: Bool { global.json }
  var shopName: String { global.shop }

  /// The packs of every layer: built in, the user's, then `--recipes` or
  /// `JUICE_MAKER_RECIPES`.
  func packFiles() throws(CLIError) -> [DataLayers.File] {
    try DataLayers.packs(given: global.recipes, environment: environment)
  }

  /// The store: `--store`, `JUICE_MAKER_STORE`, or the file `store.sqlite` under
  /// `$XDG_STATE_HOME/juice-maker/` (else `~/.local/state/juice-maker/`).
  var store: StoreAddress {
    if let address = global.store ?? global.storeVariable {
      return address
    }
    let state: String
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
      state = xdg
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      state = home + "/.local/state"
    }
    return StoreAddress(defaultPath: state + "/juice-maker/store.sqlite")
  }

  /// Loads the packs.
  func loadCatalog() throws(CLIError) -> Catalog {
    try DataLayers.loadCatalog(packFiles())
  }

  /// How long opening a store, or an operation on it, waits for another process's lock
  /// by default.
  static let busyTimeout: Duration = .seconds(15)

  /// Opens the durable store for the catalog's fruits.
  ///
  /// Opening waits up to `Context.busyTimeout` for another process's lock whatever
  /// `busyTimeout` is.
  ///
  /// - Parameters:
  ///   - catalog: The fruits the store holds.
  ///   - busyTimeout: How long each operation waits for another process's lock (SQLite's
  ///     busy timeout, PostgreSQL's `lock_timeout` unless the URI sets one); the shop
  ///     waits briefly and tries again itself.
  func openStore(for catalog: Catalog, busyTimeout: Duration = Context.busyTimeout)
    throws(CLIError) -> FruitStore
  {
    let address = store
    let deadline = ContinuousClock.now + Self.busyTimeout
    while true {
      do throws(StockStorageError) {
        if address.isURI {
          return FruitStore(
            storage: try PostgresStockStorage(
              uri: address.text, fruits: catalog.fruits, lockTimeout: busyTimeout))
        }
        return FruitStore(
          storage: try SQLiteStockStorage(
            path: address.text, fruits: catalog.fruits, busyTimeout: busyTimeout))
      } catch {
        guard case .unavailable = error, ShopHealth(error) == .busy,
          ContinuousClock.now < deadline
        else {
          throw CLIError(error).scrubbed(by: address)
        }
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
  }

  /// Every level of the store, or the command's error when it cannot be read.
  func levels(of store: FruitStore) throws(CLIError) -> [Int] {
    do {
      return try store.levels()
    } catch {
      throw CLIError(error)
    }
  }

  /// Writes a line of the command's result.
  func say(_ line: String) {
    output.write(line + "\n")
  }

  /// Writes a JSON document.
  func emit(_ document: some Encodable) {
    output.write(JSONOutput.encode(document))
  }
}
