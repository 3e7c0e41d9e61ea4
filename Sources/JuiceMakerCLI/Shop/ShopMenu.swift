import FoundationEssentials
import JuiceMakerKit
import Synchronization

/// The menu a command sells from: the packs and string catalogs of every layer, the store's
/// published layer included, loaded together.
struct ShopMenu {
  let catalog: Catalog
  let strings: StringCatalog
  let texts: Texts
  let packFiles: [DataLayers.File]
  let catalogFiles: [DataLayers.File]
  /// The store's menu layer it was loaded over.
  let published: PublishedMenu
  /// The version of the store's menu layer it was loaded at; 0 for none.
  var version: Int { published.version }
  /// The files of the store's and the user's layers left out for their problems.
  let skipped: [String]
  /// The lines that say which files were left out and why; empty when none was.
  let warning: [String]
  /// The problems of the files left out, one per line.
  let problems: [String]
}

/// Where a menu's strings come from when it is loaded again.
enum StringsChoice {
  /// Every layer's catalogs, read again.
  case reloaded
  /// The context's strings, whose catalogs did not change.
  case kept
  /// The context's strings, unless the store's layer holds catalogs.
  case asPublished
}

/// A shop's store opened with the menu it sells.
struct OpenedShop {
  /// The command's context, speaking with the menu's strings.
  let context: Context
  let menu: ShopMenu
  let store: FruitStore
  /// The store's storage, for the menu's watcher.
  let storage: any StockStorage
}

extension Context {
  /// Loads the packs and catalogs of every layer over the store's published layer, leaving
  /// out the store's and the user's files that have problems.
  ///
  /// The catalogs are loaded again only when the store's layer holds some; otherwise the
  /// strings the command started with are used.
  ///
  /// - Parameters:
  ///   - published: The store's menu layer.
  ///   - strings: Whether to read the catalogs of every layer again (`.reloaded`), keep the
  ///     context's (`.kept`, for a shop whose catalogs did not change), or read them again
  ///     only when the store's layer holds some (`.asPublished`).
  /// - Throws: `CLIError.invalidPacks` or `.invalidStrings` when a built-in or given file
  ///   has problems.
  func loadMenu(published: PublishedMenu, strings choice: StringsChoice = .asPublished)
    throws(CLIError) -> ShopMenu
  {
    let packFiles: [DataLayers.File]
    let packs: (catalog: Catalog, skipped: [DataLayers.File], problems: CatalogError?)
    if published.files.isEmpty, let prefetched = try packPrefetch?.take(given: global.recipes) {
      packFiles = prefetched.files
      packs = (prefetched.catalog, prefetched.skipped, prefetched.problems)
    } else {
      packFiles = try DataLayers.packs(
        given: global.recipes, configuration: configuration, published: published)
      packs = try DataLayers.loadCatalogSkippingBrokenUserPacks(
        packFiles, cache: configuration.compiledCache)
    }
    var skipped = packs.skipped.map(\.path)
    var warning: [String] = []
    var problems: [String] = []
    if let packProblems = packs.problems {
      problems += packProblems.problems.map { $0.localized(texts) }
      warning += warningLines(packs.skipped, key: "warning.skippedPack", problems: problems)
    }
    var menuStrings = strings
    var menuTexts = texts
    var menuCatalogFiles = catalogFiles
    let reloading =
      switch choice {
      case .reloaded: true
      case .kept: false
      case .asPublished: published.files.contains(where: { DataLayers.isCatalog($0.name) })
      }
    if reloading {
      do throws(LocalizationError) {
        menuCatalogFiles = try DataLayers.catalogs(
          given: global.localization, configuration: configuration, published: published)
        // The languages and keys the command loaded its strings with.
        let loaded = try DataLayers.loadStringsSkippingBrokenUserCatalogs(
          menuCatalogFiles, selection: strings.selection, cache: configuration.compiledCache)
        menuStrings = loaded.strings
        menuTexts = Texts(
          localizer: menuStrings.localizer(for: configuration.language(given: global.lang)))
        skipped += loaded.skipped.map(\.path)
        if let catalogProblems = loaded.problems {
          let lines = catalogProblems.lines.map { texts.shown($0) }
          problems += lines
          warning += warningLines(loaded.skipped, key: "warning.skippedCatalog", problems: lines)
        }
      } catch {
        throw .invalidStrings(error)
      }
    }
    return ShopMenu(
      catalog: packs.catalog, strings: menuStrings, texts: menuTexts, packFiles: packFiles,
      catalogFiles: menuCatalogFiles, published: published, skipped: skipped,
      warning: warning, problems: problems)
  }

  /// The context speaking with a menu's strings.
  func adopting(_ menu: ShopMenu) -> Context {
    var context = self
    context.strings = menu.strings
    context.texts = menu.texts
    context.catalogFiles = menu.catalogFiles
    spokenTexts.adopt(menu.texts)
    return context
  }

  /// Opens the store with the menu of every layer, its published layer included.
  ///
  /// The menu of the files alone is loaded first and the store opened for its fruits: a
  /// store nothing was published to is then ready. Otherwise the menu is loaded again over
  /// the store's layer, and the store opened again when that menu has other fruits, so a
  /// published fruit gets its row and initial stock. A warning names each file left out.
  ///
  /// - Throws: `CLIError` when a built-in or given file has problems, or the store cannot
  ///   be opened or read.
  func openShop(busyTimeout: Duration = Context.busyTimeout) throws(CLIError) -> OpenedShop {
    var menu: ShopMenu?
    do throws(CLIError) {
      menu = try loadMenu(published: .empty)
    } catch {
      // It may need a fruit or a string the store's layer has; loaded again below.
      menu = nil
    }
    let opened = try openStorage(
      fruits: menu?.catalog.fruits ?? [],
      creating: usesDefaultStore ? .ifMissing : .never, busyTimeout: busyTimeout)
    if opened.created { noteCreatedDefaultStore(opened.storage) }
    var storage = opened.storage
    let published = try Self.publishedMenu(of: storage)
    let chosen: ShopMenu
    if let menu, published.version == 0 {
      chosen = menu
    } else {
      chosen = try loadMenu(published: published)
      storage =
        try storageOpenedAgain(storage, for: chosen.catalog, busyTimeout: busyTimeout) ?? storage
    }
    if !chosen.warning.isEmpty {
      errorOutput.write(chosen.warning.joined(separator: "\n") + "\n")
    }
    return OpenedShop(
      context: adopting(chosen), menu: chosen, store: FruitStore(storage: storage),
      storage: storage)
  }

  /// The shop opened again for a changed menu: the store opened again only when the menu
  /// has other fruits.
  func reopened(_ shop: OpenedShop, with menu: ShopMenu, busyTimeout: Duration)
    throws(CLIError) -> OpenedShop
  {
    guard
      let storage = try storageOpenedAgain(
        shop.storage, for: menu.catalog, busyTimeout: busyTimeout)
    else {
      return OpenedShop(
        context: adopting(menu), menu: menu, store: shop.store, storage: shop.storage)
    }
    return OpenedShop(
      context: adopting(menu), menu: menu, store: FruitStore(storage: storage), storage: storage)
  }

  /// The store opened again for `catalog`'s fruits, so a new fruit gets its row with its
  /// initial stock; `nil` when `storage` holds levels for them in their order already.
  private func storageOpenedAgain(
    _ storage: any StockStorage, for catalog: Catalog, busyTimeout: Duration
  ) throws(CLIError) -> (any StockStorage)? {
    guard storage.fruits != catalog.fruits.map(\.id) else { return nil }
    return try openStorage(fruits: catalog.fruits, creating: .never, busyTimeout: busyTimeout)
      .storage
  }

  /// The store's menu layer; empty for a storage that holds none.
  static func publishedMenu(of storage: any StockStorage) throws(CLIError) -> PublishedMenu {
    guard let storage = storage as? any MenuStorage else { return .empty }
    do throws(StockStorageError) {
      return try storage.publishedMenu()
    } catch {
      throw CLIError(error)
    }
  }

  /// The warning for the user's files left out, then their problems, indented.
  func warningLines(_ files: [DataLayers.File], key: String, problems: [String]) -> [String] {
    files.map { texts.string(key, .string(texts.shown($0.path))) } + problems.map { "  " + $0 }
  }
}

/// The words a command adopted with a menu, kept for the message of the error it may end
/// with: an error is said after the command's own context is gone.
final class SpokenTexts: Sendable {
  private let adopted = Mutex<Texts?>(nil)

  /// The words adopted last, if any.
  var current: Texts? { adopted.withLock { $0 } }

  /// Notes the words of a menu the command adopted.
  func adopt(_ texts: Texts) {
    adopted.withLock { $0 = texts }
  }
}
