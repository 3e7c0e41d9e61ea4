import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite

/// What every command needs: the parsed command line, the data, and the streams.
struct Context {
  let global: GlobalOptions
  /// Everything taken from the environment, resolved in one place.
  let configuration: Configuration
  /// The string catalogs of every layer, as loaded into `strings`; the store's layer's too
  /// once the store's menu is adopted (`adopting(_:)`).
  var catalogFiles: [DataLayers.File]
  var strings: StringCatalog
  /// The problems of the user's string catalogs that `strings` was loaded without, or `nil`.
  var skippedCatalogProblems: LocalizationError? = nil
  var texts: Texts
  /// The words the command's error is said in: `texts`, then those of the menu the command
  /// adopted, so an error names a published juice or fruit by its name.
  var spokenTexts = SpokenTexts()
  /// The packs loading while the strings did, for the first load of the packs.
  var packPrefetch: PackPrefetch? = nil
  let output: any TextOutput
  let errorOutput: any TextOutput

  var json: Bool { global.json }
  var shopName: String { global.shop }

  /// The packs of every layer: built in, the user's, then `--recipes` or
  /// `JUICE_MAKER_RECIPES`.
  func packFiles() throws(CLIError) -> [DataLayers.File] {
    try DataLayers.packs(given: global.recipes, configuration: configuration)
  }

  /// The store: `--store`, `JUICE_MAKER_STORE`, or the default store.
  var store: StoreAddress { configuration.store(global) }

  /// The process environment.
  var environment: [String: String] { configuration.environment }

  /// Whether the store is the per-user default: neither `--store` nor
  /// `JUICE_MAKER_STORE` names one.
  var usesDefaultStore: Bool {
    global.store == nil && global.storeVariable == nil
  }

  /// Loads the packs, leaving out a user's pack that has problems with a warning on
  /// standard error naming it, so a typo in one file does not stop the shop.
  ///
  /// - Throws: `CLIError.invalidPacks` when a built-in or given pack has problems.
  func loadCatalog() throws(CLIError) -> Catalog {
    let loaded: (catalog: Catalog, skipped: [DataLayers.File], problems: CatalogError?)
    if let prefetched = try packPrefetch?.take(given: global.recipes) {
      loaded = (prefetched.catalog, prefetched.skipped, prefetched.problems)
    } else {
      loaded = try DataLayers.loadCatalogSkippingBrokenUserPacks(
        packFiles(), cache: configuration.compiledCache)
    }
    if let problems = loaded.problems {
      warnSkipping(
        loaded.skipped, key: "warning.skippedPack",
        problems: problems.problems.map { $0.localized(texts) })
    }
    return loaded.catalog
  }

  /// Loads the packs over the store's menu layer, failing on any problem: what `validate`
  /// checks.
  func loadCatalogStrictly(published: PublishedMenu) throws(CLIError) -> Catalog {
    try DataLayers.loadCatalog(
      DataLayers.packs(given: global.recipes, configuration: configuration, published: published),
      cache: configuration.compiledCache)
  }

  /// Writes the warning for the user's files left out, then their problems, indented.
  func warnSkipping(_ files: [DataLayers.File], key: String, problems: [String]) {
    errorOutput.write(
      warningLines(files, key: key, problems: problems).joined(separator: "\n") + "\n")
  }

  /// How long opening a store, or an operation on it, waits for another process's lock
  /// by default.
  static let busyTimeout: Duration = .seconds(15)

  /// Opens the durable store for the catalog's fruits.
  ///
  /// A store is created on purpose, by `init`: a store that `--store` or
  /// `JUICE_MAKER_STORE` names must exist, so a mistyped path or database is refused and
  /// nothing is created. Only the per-user default store is created on first use, with a
  /// one-line notice on standard error. Opening waits up to `Context.busyTimeout` for
  /// another process's lock whatever `busyTimeout` is.
  ///
  /// - Parameters:
  ///   - catalog: The fruits the store holds.
  ///   - busyTimeout: How long each operation waits for another process's lock (SQLite's
  ///     busy timeout, PostgreSQL's `lock_timeout` unless the URI sets one); the shop
  ///     waits briefly and tries again itself.
  /// - Throws: `CLIError.storeMissing` when a named store does not exist, or the error
  ///   the store failed with.
  func openStore(for catalog: Catalog, busyTimeout: Duration = Context.busyTimeout)
    throws(CLIError) -> FruitStore
  {
    let opened = try openStorage(
      for: catalog, creating: usesDefaultStore ? .ifMissing : .never, busyTimeout: busyTimeout)
    if opened.created { noteCreatedDefaultStore(opened.storage) }
    return FruitStore(storage: opened.storage)
  }

  /// Says on standard error that the default store was created on first use.
  func noteCreatedDefaultStore(_ storage: any StockStorage) {
    errorOutput.write(
      texts.string("store.created.default", .string(texts.shown(storage.location))) + "\n")
  }

  /// Opens the storage of the store `store` names: a PostgreSQL database for a
  /// `postgresql://` or `postgres://` URI, else an SQLite file.
  ///
  /// - Returns: The storage, and whether opening it created the store.
  /// - Throws: The `CLIError` of the storage's failure: `.storeMissing` under `.never`,
  ///   `.storeExists` under `.always`.
  func openStorage(
    for catalog: Catalog, creating: StoreCreation, busyTimeout: Duration = Context.busyTimeout
  ) throws(CLIError) -> (storage: any StockStorage, created: Bool) {
    try openStorage(fruits: catalog.fruits, creating: creating, busyTimeout: busyTimeout)
  }

  /// Opens the storage of the store `store` names for some fruits; see
  /// ``openStorage(for:creating:busyTimeout:)``.
  func openStorage(
    fruits: [Fruit], creating: StoreCreation, busyTimeout: Duration = Context.busyTimeout
  ) throws(CLIError) -> (storage: any StockStorage, created: Bool) {
    let address = store
    let deadline = ContinuousClock.now + Self.busyTimeout
    while true {
      do throws(StockStorageError) {
        if address.isURI {
          let storage = try PostgresStockStorage(
            uri: address.text, fruits: fruits, creating: creating,
            lockTimeout: busyTimeout)
          return (storage, storage.createdStore)
        }
        let storage = try SQLiteStockStorage(
          path: address.text, fruits: fruits, busyTimeout: busyTimeout,
          creating: creating)
        return (storage, storage.createdStore)
      } catch {
        guard case .unavailable = error, ShopHealth(error) == .busy,
          ContinuousClock.now < deadline
        else {
          throw CLIError(error).scrubbed(by: address)
        }
        Threads.sleep(seconds: 0.01)
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
