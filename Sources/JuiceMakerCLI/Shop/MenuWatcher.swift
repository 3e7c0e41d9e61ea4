import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows what a running shop's menu comes from, the store's menu layer and the files of
/// the user's and the given directories, and loads the menu again when one changes.
///
/// A change is applied only when the new menu loads with no problem the running menu did
/// not have: a broken edit leaves the last good menu in use, and its problem is kept in
/// `problem` for the status line until the files or the store change again.
final class MenuWatcher {
  /// How often a shop looks for a changed menu: well within the second a change must
  /// take to show.
  static let interval: Duration = .milliseconds(250)

  /// The command's context, before any menu was adopted.
  private let context: Context
  private let directories: [String]
  private var files: [FileStamp]
  private var published: PublishedMenu
  /// The files left out of the running menu.
  private var skipped: Set<String>
  /// The running menu, whose strings a change of packs alone keeps.
  private var running: ShopMenu
  /// Why the last change was not applied, on one line; `nil` once a change applied.
  private(set) var problem: String?

  /// Starts following the sources of a menu.
  ///
  /// - Parameters:
  ///   - context: The command's context, before it adopted the menu.
  ///   - menu: The running menu, loaded over the store's layer it holds.
  init(context: Context, menu: ShopMenu) {
    self.context = context
    directories = DataLayers.directories(
      givenRecipes: context.global.recipes, givenLocalization: context.global.localization,
      configuration: context.configuration)
    files = Self.stamps(directories)
    published = menu.published
    skipped = Set(menu.skipped)
    running = menu
    problem = nil
  }

  /// Loads the menu again if its store layer or its files changed.
  ///
  /// - Parameter storage: The store the shop sells from now.
  /// - Returns: The new menu, or `nil` when nothing changed or the change is broken (then
  ///   `problem` says why).
  func check(storage: any StockStorage) -> ShopMenu? {
    let stamps = Self.stamps(directories)
    var changed = stamps != files
    // Strings are read again only when a catalog changed: a changed pack keeps them.
    var catalogsChanged =
      stamps.filter { DataLayers.isCatalog($0.path) }
      != files.filter {
        DataLayers.isCatalog($0.path)
      }
    files = stamps
    if let storage = storage as? any MenuStorage,
      let version = try? storage.menuVersion(), version != published.version
    {
      // A store that does not answer now is asked again at the next check.
      guard let menu = try? storage.publishedMenu() else { return nil }
      func catalogs(_ menu: PublishedMenu) -> [PublishedFile] {
        menu.files.filter { DataLayers.isCatalog($0.name) }
      }
      catalogsChanged = catalogsChanged || catalogs(menu) != catalogs(published)
      published = menu
      changed = true
    }
    guard changed else { return nil }
    do throws(CLIError) {
      let menu =
        catalogsChanged
        ? try context.loadMenu(published: published, strings: .reloaded)
        : try context.adopting(running).loadMenu(published: published, strings: .kept)
      // Catalogs kept are left out as they were.
      let nowSkipped = Set(menu.skipped).union(
        catalogsChanged ? [] : skipped.filter { DataLayers.isCatalog($0) })
      guard nowSkipped.isSubset(of: skipped) else {
        problem = context.texts.string(
          "shop.menu.broken", .string(menu.problems.joined(separator: " ")))
        return nil
      }
      skipped = nowSkipped
      running = menu
      problem = nil
      return menu
    } catch {
      problem = context.texts.string(
        "shop.menu.broken", .string(error.message(context.texts).trimmingWhitespace()))
      return nil
    }
  }

  // MARK: - Files

  /// What tells one version of a file from another without reading it.
  private struct FileStamp: Equatable {
    let path: String
    let size: Int64
    let modified: Int64
    let inode: UInt64
  }

  /// The stamps of the packs and catalogs in the directories, in path order.
  private static func stamps(_ directories: [String]) -> [FileStamp] {
    var stamps: [FileStamp] = []
    for directory in directories {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        continue
      }
      for name in names.sorted()
      where !name.hasPrefix(".") && (DataLayers.isPack(name) || DataLayers.isCatalog(name)) {
        let path = directory + "/" + name
        var status = stat()
        guard stat(path, &status) == 0 else { continue }
        stamps.append(
          FileStamp(
            path: path, size: Int64(status.st_size),
            modified: modified(status),
            inode: UInt64(status.st_ino)))
      }
    }
    return stamps
  }

  /// When a file was last modified, in nanoseconds since 1970.
  private static func modified(_ status: stat) -> Int64 {
    #if canImport(Darwin)
      let time = status.st_mtimespec
    #else
      let time = status.st_mtim
    #endif
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
