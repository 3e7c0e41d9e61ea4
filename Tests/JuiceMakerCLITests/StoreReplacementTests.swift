import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store file, or its `-wal` or `-shm`, removed, renamed or replaced under a running
/// process, as an operator cleaning up or restoring a backup does: the process stops
/// writing and says so, and no order is acknowledged that is not in the store the path
/// names.
struct StoreReplacementTests {
  /// What happens to the store under the running process.
  enum Replacement: String, CaseIterable, CustomTestStringConvertible {
    case removeSHM
    case removeWAL
    case renameStore
    case replaceWithCopy

    var testDescription: String { rawValue }

    func apply(to store: String) throws {
      let files = FileManager.default
      switch self {
      case .removeSHM: try files.removeItem(atPath: store + "-shm")
      case .removeWAL: try files.removeItem(atPath: store + "-wal")
      case .renameStore: try files.moveItem(atPath: store, toPath: store + ".moved")
      case .replaceWithCopy:
        // A byte copy put in place with one rename, as restoring a backup does: a new
        // file at the path, with the same content.
        try files.copyItem(atPath: store, toPath: store + ".copy")
        try #require(rename(store + ".copy", store) == 0)
      }
    }
  }

  @Test(arguments: Replacement.allCases)
  func aLineShopStopsAndNoOrderIsAcknowledgedOutsideTheStore(_ replacement: Replacement)
    async throws
  {
    let sandbox = try Sandbox()
    #expect(try await sandbox.stock() == freshStock, "the store exists")
    let shop = try RunningProgram(
      ["--lang", "en", "--shop", "downtown", "shop", "--plain"], in: sandbox)
    let served = "Here is your Banana Juice"
    shop.send("2")
    try #require(
      try await shop.wait { $0.stdout.components(separatedBy: served).count == 2 },
      "\(shop.stdout)\(shop.stderr)")

    try replacement.apply(to: sandbox.store)
    // Another process orders now, and the running shop orders twice more.
    var acknowledged: [String: Int] = ["downtown": 0, "airport": 0]
    shop.send("2")
    try await shop.wait {
      $0.stdout.components(separatedBy: served).count == 3 || $0.stderr.contains("replaced")
    }
    let other = try await sandbox.run(["--lang", "en", "--shop", "airport", "order", "2"])
    if other.status == 0, other.stdout.contains(served) { acknowledged["airport", default: 0] += 1 }
    shop.send("2")
    shop.send("q")
    let status = try await shop.finish()
    acknowledged["downtown"] = shop.stdout.components(separatedBy: served).count - 2

    #expect(status == 74, "\(shop.stdout)\(shop.stderr)")
    #expect(shop.stderr.contains("was replaced under this process"), "\(shop.stderr)")
    #expect(shop.stderr.contains("The store file was replaced or removed"), "\(shop.stderr)")
    try await expectAcknowledged(acknowledged, areIn: sandbox)
  }

  @Test(arguments: Replacement.allCases)
  func aRushStopsAndItsStoreStaysWhole(_ replacement: Replacement) async throws {
    let sandbox = try Sandbox()
    #expect(try await sandbox.stock() == freshStock, "the store exists")
    let rush = try RunningProgram(
      ["--lang", "en", "rush", "--shops", "2", "--orders", "50000"], in: sandbox)
    // Some orders are committed first.
    try #require(
      try await rush.wait {
        _ in
        ((try? FileManager.default.attributesOfItem(atPath: sandbox.store + "-wal"))?[
          .size] as? Int ?? 0) > 64 * 1024
      })
    try replacement.apply(to: sandbox.store)
    let status = try await rush.finish(timeout: .seconds(60))

    #expect(status == 74, "\(rush.stdout)\(rush.stderr)")
    #expect(rush.stderr.contains("replaced or removed while open"), "\(rush.stderr)")
    try await expectAcknowledged([:], areIn: sandbox)
  }

  /// Checks that the store the path names is whole (each level is its initial level plus
  /// its journal's changes) and holds every order acknowledged after the replacement.
  private func expectAcknowledged(
    _ acknowledged: [String: Int], areIn sandbox: Sandbox
  ) async throws {
    guard FileManager.default.fileExists(atPath: sandbox.store) else {
      // The path names no store now (the store was renamed away, and nothing makes one
      // but `init`): no order may have been acknowledged after the replacement.
      let missing = try await sandbox.run(["stock"])
      #expect(missing.status == 65, "\(missing)")
      for (shop, count) in acknowledged {
        #expect(count == 0, "\(shop): \(count) orders acknowledged into no store")
      }
      return
    }
    let stock = try await sandbox.stock()
    let entries = try await sandbox.history()
    var journaled = freshStock
    var orders: [String: Int] = [:]
    for entry in entries {
      for (fruit, change) in entry["changes"] as? [String: Int] ?? [:] {
        journaled[fruit, default: 0] += change
      }
      if entry.string("kind") == "order", entry.string("outcome") == "done",
        let shop = entry.string("shop")
      {
        orders[shop, default: 0] += entry.int("count") ?? 0
      }
    }
    #expect(stock == journaled, "levels are the initial levels plus the journal's changes")
    for (shop, count) in acknowledged {
      #expect(
        count <= orders[shop] ?? 0,
        "\(shop): \(count) orders acknowledged after the replacement, \(orders[shop] ?? 0) in the store"
      )
    }
  }
}
