import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

/// What the benchmark does when it runs as its own child process (`--child MODE ...`).
///
/// A process started from the benchmark inherits the benchmark's peak memory: `posix_spawn`
/// borrows the parent's address space until `exec`, and Linux then records that space's
/// high-water mark as the child's `ru_maxrss`. So memory is measured in a fresh child
/// that either reports its own `/proc/self/status`, or forks and execs the program to
/// measure and reports that grandchild's `ru_maxrss`, which can only be overstated up to
/// what a fork of the small launcher holds (it is printed as the floor).
enum ChildMode {
  /// Runs a child mode, printing one line of integers to standard output.
  ///
  /// - `memory DIR`: loads the catalog in `DIR`, makes an in-memory store and a shop, makes
  ///   every juice once, and prints its `VmRSS` and `VmHWM` in bytes.
  /// - `phases ROOT STORE`: does what `juice-maker stock` does, cold, as the first thing in a
  ///   fresh process, and prints the milliseconds of each phase: loading the string catalogs
  ///   of `ROOT/Localization`, loading `ROOT/Recipes`, and opening the store file `STORE` and
  ///   reading its levels.
  /// - `launch PROGRAM ARGUMENT...`: forks and execs the program with its output discarded,
  ///   and prints the program's `ru_maxrss` in bytes, its exit status, and the floor: the
  ///   `ru_maxrss` of a fork that exits at once, the most the first can be overstated by.
  static func run(_ arguments: [String]) throws(BenchmarkError) {
    switch arguments.first {
    case "launch" where arguments.count >= 2:
      let run = try ChildProcess.run(
        arguments[1], Array(arguments.dropFirst(2)), forking: true)
      print(run.peakResidentBytes, run.status, ChildProcess.forkedPeak())
    case "memory" where arguments.count == 2:
      try holdLargeCatalog(URL(fileURLWithPath: arguments[1], isDirectory: true))
    case "phases" where arguments.count == 3:
      try timePhases(
        root: URL(fileURLWithPath: arguments[1], isDirectory: true), store: arguments[2])
    default:
      throw .usage("unknown child mode \(arguments)")
    }
  }

  private static func holdLargeCatalog(_ directory: URL) throws(BenchmarkError) {
    let catalog: Catalog
    do {
      catalog = try Catalog.load(from: directory)
    } catch {
      throw .failed("cannot load \(directory.path): \(error)")
    }
    let store = FruitStore(catalog: catalog)
    let shop = JuiceMaker(catalog: catalog, store: store)
    var made = 0
    for juice in catalog.juices where (try? shop.make(juice)) != nil {
      made += 1
    }
    guard made > 0 else { throw .wrongResult("the memory child made no juice") }
    withExtendedLifetime(shop) {
      print(memoryStatus("VmRSS"), memoryStatus("VmHWM"))
    }
  }

  private static func timePhases(root: URL, store path: String) throws(BenchmarkError) {
    var times: [Double] = []
    var start = ContinuousClock.now
    func lap() {
      let now = ContinuousClock.now
      times.append((now - start).seconds * 1000)
      start = now
    }
    do {
      let strings = try StringCatalog(
        directory: root.appendingPathComponent("Localization", isDirectory: true))
      _ = strings.localizer(for: nil)
      lap()
      let catalog = try Catalog.load(
        from: root.appendingPathComponent("Recipes", isDirectory: true))
      lap()
      let store = FruitStore(storage: try SQLiteStockStorage(path: path, fruits: catalog.fruits))
      guard try store.levels().count == catalog.fruits.count else {
        throw BenchmarkError.wrongResult("the store holds other fruits")
      }
      lap()
    } catch let error as BenchmarkError {
      throw error
    } catch {
      throw .failed("a phase of stock failed: \(error)")
    }
    print(times.map { String($0) }.joined(separator: " "))
  }

  /// A field of `/proc/self/status`, in bytes; 0 where there is no such file.
  static func memoryStatus(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
      return kilobytes * 1024
    }
    return 0
  }
}
