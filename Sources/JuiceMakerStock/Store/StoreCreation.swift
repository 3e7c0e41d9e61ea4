/// Whether opening a storage may create its store, so that a store is created on
/// purpose and a mistyped location is refused instead of becoming a new, empty store.
///
/// ```swift
/// let new = try SQLiteStockStorage(path: "shops/store.sqlite", fruits: catalog.fruits,
///   creating: .always)      // "juice-maker init": refuses a store that exists
/// let shop = try SQLiteStockStorage(path: "shops/store.sqlite", fruits: catalog.fruits,
///   creating: .never)       // every other command: refuses a missing store
/// ```
///
/// A location holds no store when there is nothing there (no file) or nothing in it yet
/// (an empty file, an empty database); a location that holds something other than a
/// store is `StockStorageError.invalid` whatever the choice.
public enum StoreCreation: Sendable, Hashable, CaseIterable {
  /// Opens the store, creating it with each fruit's initial stock when there is none.
  case ifMissing
  /// Opens an existing store only. Where there is none, opening fails with
  /// `StockStorageError.missing` and creates nothing: no file, no directory, no table.
  case never
  /// Creates a new store with each fruit's initial stock. Where there is one already,
  /// opening fails with `StockStorageError.alreadyExists` and changes nothing.
  case always
}
