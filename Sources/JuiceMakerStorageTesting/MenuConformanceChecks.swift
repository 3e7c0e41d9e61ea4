import Foundation
import JuiceMakerKit
import Synchronization
import Testing

/// The checks of `MenuStorage`'s contract, for a storage that holds a menu layer.
extension ConformanceChecks {
  /// A pack's bytes, with bytes no text holds, so contents that went through text fail.
  static let seasonal = PublishedFile(
    name: "Seasonal.json", contents: Array(#"{"fruits": []}"#.utf8) + [0, 0xFF, 0x0A, 0x80])
  static let tropical = PublishedFile(name: "Tropical.json", contents: Array("[1]".utf8))
  static let emptyCatalog = PublishedFile(name: "Localizable.xcstrings", contents: [])
  /// A name a database's collation may sort elsewhere than its bytes do.
  static let lowercase = PublishedFile(name: "apple.json", contents: Array("{}".utf8))

  /// A storage over the store, as a `MenuStorage`; `nil`, with an issue, when it is none.
  func menuStorage(_ store: ConformanceStore) throws -> (any MenuStorage)? {
    let storage = try store.open()
    guard let menu = storage as? any MenuStorage else {
      Issue.record("\(kind.name) says it holds a menu, but its storage is no MenuStorage")
      return nil
    }
    return menu
  }

  func menuFilesArePublishedReplacedRetiredAndLogged() throws {
    let store = try kind.makeStore(Self.fruits)
    guard let storage = try menuStorage(store) else { return }
    #expect(try storage.menuVersion() == 0)
    #expect(try storage.publishedMenu() == .empty)
    #expect(try storage.menuPublications(limit: nil) == [])

    let before = Date()
    let first = try #require(
      try storage.publish(
        [Self.tropical, Self.lowercase, Self.seasonal, Self.emptyCatalog], retiring: [],
        by: "head-office", expectingVersion: 0))
    #expect(first.version == 1)
    #expect(first.editor == "head-office")
    // Name order is the order of the names' UTF-8 bytes.
    let names = ["Localizable.xcstrings", "Seasonal.json", "Tropical.json", "apple.json"]
    #expect(first.published == names)
    #expect(first.retired == [])
    let expected = PublishedMenu(
      version: 1, files: [Self.emptyCatalog, Self.seasonal, Self.tropical, Self.lowercase])
    #expect(try storage.menuVersion() == 1)
    #expect(try storage.publishedMenu() == expected)
    if let other = try menuStorage(store) {
      #expect(try other.publishedMenu() == expected)
    }

    let replaced = PublishedFile(name: "Seasonal.json", contents: Array("{}".utf8))
    let second = try #require(
      try storage.publish(
        [replaced], retiring: ["Tropical.json", "apple.json"], by: "airport",
        expectingVersion: 1))
    #expect(second.published == ["Seasonal.json"])
    #expect(second.retired == ["Tropical.json", "apple.json"])
    #expect(
      try storage.publishedMenu()
        == PublishedMenu(version: 2, files: [Self.emptyCatalog, replaced]))
    // A publication that only retires.
    let third = try #require(
      try storage.publish(
        [], retiring: ["Localizable.xcstrings", "Seasonal.json"], by: "downtown",
        expectingVersion: 2))
    #expect(third.published == [])
    #expect(try storage.publishedMenu() == PublishedMenu(version: 3, files: []))
    let after = Date()

    let log = try storage.menuPublications(limit: nil)
    #expect(log == [third, second, first])
    #expect(log.map(\.editor) == ["downtown", "airport", "head-office"])
    #expect(log.allSatisfy { (before.addingTimeInterval(-1)...after).contains($0.date) })
    #expect(try storage.menuPublications(limit: 1) == [third])
    #expect(try storage.menuPublications(limit: 0) == [])
  }

  func aStaleMenuVersionOrAnUnknownNameWritesNothing() throws {
    let store = try kind.makeStore(Self.fruits)
    guard let storage = try menuStorage(store) else { return }
    _ = try #require(
      try storage.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    for stale in [0, 2] {
      #expect(
        try storage.publish(
          [Self.tropical], retiring: ["Seasonal.json"], by: "b", expectingVersion: stale) == nil)
    }
    #expect(
      try storage.publish(
        [Self.tropical], retiring: ["Seasonal.json", "Unknown.json"], by: "b",
        expectingVersion: 1) == nil)
    #expect(try storage.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
    #expect(try storage.menuPublications(limit: nil).count == 1)
    // Names no publication can hold: empty, a line feed or NUL, given twice, or both
    // published and retired.
    let refused: [([String], [String])] = [
      ([""], []), (["a\nb.json"], []), (["a\0.json"], []), (["A.json", "A.json"], []),
      (["A.json"], ["A.json"]),
    ]
    for (published, retired) in refused {
      let error = #expect(throws: StockStorageError.self) {
        try storage.publish(
          published.map { PublishedFile(name: $0, contents: [1]) }, retiring: retired,
          by: "c", expectingVersion: 1)
      }
      if case .invalid? = error {
      } else {
        Issue.record("\(published) retiring \(retired): \(String(describing: error))")
      }
    }
    #expect(try storage.publishedMenu() == PublishedMenu(version: 1, files: [Self.seasonal]))
  }

  func aPublicationWakesAnotherStorageWithinASecond() throws {
    let store = try kind.makeStore(Self.fruits)
    guard let publisher = try menuStorage(store), let watcher = try menuStorage(store) else {
      return
    }
    // The first call notes the store's state.
    try watcher.waitForChanges(timeout: .zero)
    let woken = Mutex<ContinuousClock.Instant?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      defer { done.signal() }
      if (try? watcher.waitForChanges(timeout: .seconds(10))) != nil {
        woken.withLock { $0 = .now }
      }
    }.start()
    Thread.sleep(forTimeInterval: 0.2)
    let published = ContinuousClock.now
    _ = try #require(
      try publisher.publish([Self.seasonal], retiring: [], by: "a", expectingVersion: 0))
    done.wait()
    let when = try #require(woken.withLock { $0 })
    #expect(when - published < .seconds(1))
    #expect(try watcher.menuVersion() == 1)
    #expect(try watcher.publishedMenu().files == [Self.seasonal])
  }

  func publishersAtOnceCannotBothPass() throws {
    let store = try kind.makeStore(Self.fruits)
    var storages: [any MenuStorage] = []
    for _ in 0..<4 {
      guard let storage = try menuStorage(store) else { return }
      storages.append(storage)
    }
    let passed = Mutex(0)
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    for (index, storage) in storages.enumerated() {
      group.enter()
      Thread {
        defer { group.leave() }
        do {
          let file = PublishedFile(name: "Shop\(index).json", contents: [UInt8(index)])
          if try storage.publish([file], retiring: [], by: "\(index)", expectingVersion: 0)
            != nil
          {
            passed.withLock { $0 += 1 }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }.start()
    }
    group.wait()
    #expect(failures.withLock { $0 } == [])
    #expect(passed.withLock { $0 } == 1)
    #expect(try storages[0].menuVersion() == 1)
    #expect(try storages[0].publishedMenu().files.count == 1)
  }
}
