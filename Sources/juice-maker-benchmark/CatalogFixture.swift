import Foundation
import JuiceMakerKit

/// Generated recipe directories of 10,000 juices over 50 fruits, in a temporary directory.
///
/// - `onePack`: one pack, `menu.json`, with every fruit and juice.
/// - `manyPacks`: `fruits.json` with every fruit, and one pack per juice,
///   `juice-00000.json` to `juice-09999.json`.
///
/// Each juice takes 1 to 4 distinct fruits, 1 to 5 of each, drawn from a fixed seed.
struct CatalogFixture: Sendable {
  static let juiceCount = 10_000
  static let fruitCount = 50

  let root: URL
  var onePack: URL { root.appendingPathComponent("one-pack", isDirectory: true) }
  var manyPacks: URL { root.appendingPathComponent("many-packs", isDirectory: true) }

  /// Writes both directories.
  ///
  /// - Throws: `BenchmarkError.failed` when a file cannot be written.
  static func make() throws(BenchmarkError) -> CatalogFixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    let fixture = CatalogFixture(root: root)
    do {
      try? FileManager.default.removeItem(at: root)
      for directory in [fixture.onePack, fixture.manyPacks] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      }
      let fruits = (0..<fruitCount).map { "fruit-\($0)" }
      let fruitList = fruits.map { "{\"id\":\"\($0)\",\"stock\":1000000}" }.joined(separator: ",")
      var random = SplitMix64(seed: 10_000)
      let juices = (0..<juiceCount).map { index in
        var chosen: [Int] = []
        let size = Int(random.next() % 4) + 1
        while chosen.count < size {
          let fruit = Int(random.next() % UInt64(fruitCount))
          if !chosen.contains(fruit) { chosen.append(fruit) }
        }
        let ingredients = chosen.map {
          "{\"fruit\":\"\(fruits[$0])\",\"count\":\(random.next() % 5 + 1)}"
        }
        return "{\"id\":\"juice-\(index)\",\"ingredients\":[\(ingredients.joined(separator: ","))]}"
      }
      try write(
        "{\"fruits\":[\(fruitList)],\n\"juices\":[\n\(juices.joined(separator: ",\n"))\n]}\n",
        to: fixture.onePack.appendingPathComponent("menu.json"))
      try write(
        "{\"fruits\":[\(fruitList)]}\n", to: fixture.manyPacks.appendingPathComponent("fruits.json")
      )
      for (index, juice) in juices.enumerated() {
        let name = "juice-" + String(index + 100_000).dropFirst() + ".json"
        try write("{\"juices\":[\(juice)]}\n", to: fixture.manyPacks.appendingPathComponent(name))
      }
    } catch {
      throw .failed("cannot write the catalog fixture in \(root.path): \(error)")
    }
    return fixture
  }

  private static func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }

  /// Deletes both directories.
  func remove() {
    try? FileManager.default.removeItem(at: root)
  }
}
