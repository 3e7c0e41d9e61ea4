import Dispatch
import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit
import Synchronization

/// The packs of every layer, loaded on another thread while the command's strings load.
///
/// The two loads are independent, and on a large menu each takes about as long as the
/// other, more so when their compiled forms are not in the cache yet. A command that loads
/// its menu (`CommandDefinition.loadsMenu`) starts one before its strings; the first load of
/// the packs of the files alone (``Context/loadMenu(published:strings:)`` over no published
/// layer, or ``Context/loadCatalog()``) takes its result, which is what that load would
/// have returned or thrown. Later loads, such as a watcher's, read the files again.
final class PackPrefetch: Sendable {
  /// The packs loaded, the user's packs left out, and their problems.
  typealias Loaded = (
    files: [DataLayers.File], catalog: Catalog, skipped: [DataLayers.File],
    problems: CatalogError?
  )

  /// The `--recipes` directory or `JUICE_MAKER_RECIPES` it loaded with.
  let given: String?
  private let result = Mutex<Result<Loaded, CLIError>?>(nil)
  private let taken = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts loading.
  ///
  /// - Parameters:
  ///   - given: The `--recipes` directory or `JUICE_MAKER_RECIPES`, if any.
  ///   - configuration: For the user's directory and the cache.
  init(given: String?, configuration: Configuration) {
    self.given = given
    let load: @Sendable () -> Void = { [self] in
      let loaded = Result { () throws(CLIError) -> Loaded in
        let files = try DataLayers.packs(given: given, configuration: configuration)
        let packs = try DataLayers.loadCatalogSkippingBrokenUserPacks(
          files, cache: configuration.compiledCache)
        return (files, packs.catalog, packs.skipped, packs.problems)
      }
      self.result.withLock { $0 = loaded }
      self.finished.signal()
    }
    // Without a thread to spare, the packs load now, before the strings.
    if !Threads.detach(load) { load() }
  }

  /// What the load returned or threw, once, for a load with the same `--recipes`; `nil`
  /// when taken before or loaded for other packs.
  func take(given: String?) throws(CLIError) -> Loaded? {
    guard given == self.given,
      !taken.exchange(true, ordering: .acquiringAndReleasing)
    else { return nil }
    finished.wait()
    guard let loaded = result.withLock({ $0 }) else { return nil }
    return try loaded.get()
  }
}
