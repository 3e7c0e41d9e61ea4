import Foundation
import JuiceMakerKit

/// Milliseconds to load 10,000 juices with `Catalog.load(from:)`, from one pack and from
/// 10,000 packs, and the `JSONDecoder` baseline on the one pack.
///
/// The files are in the page cache: one untimed load precedes the timed ones.
struct CatalogBenchmarks {
  let options: Options
  let fixture: CatalogFixture

  func run(into report: inout Report) throws(BenchmarkError) {
    if options.wants("catalog.one_pack_10k_juices") {
      report.record(
        Figure(
          "catalog.one_pack_10k_juices", .milliseconds, try load(fixture.onePack),
          goal: .atMost(60)))
    }
    if options.wants("catalog.10k_pack_files") {
      report.record(
        Figure(
          "catalog.10k_pack_files", .milliseconds, try load(fixture.manyPacks),
          goal: .atMost(120)))
    }
    if options.wants("catalog.jsondecoder_one_pack_10k_juices") {
      report.record(
        Figure("catalog.jsondecoder_one_pack_10k_juices", .milliseconds, try decodeWithFoundation())
      )
    }
  }

  /// Times `Catalog.load(from:)` on a directory.
  private func load(_ directory: URL) throws(BenchmarkError) -> Samples {
    try repeatedly { () throws(BenchmarkError) in
      let catalog: Catalog
      do {
        catalog = try Catalog.load(from: directory)
      } catch {
        throw .wrongResult("the generated catalog does not load: \(error)")
      }
      guard catalog.juices.count == CatalogFixture.juiceCount,
        catalog.fruits.count == CatalogFixture.fruitCount
      else {
        throw .wrongResult(
          "loaded \(catalog.fruits.count) fruits and \(catalog.juices.count) juices")
      }
    }
  }

  /// Times reading the one pack and decoding it into `Codable` structs.
  private func decodeWithFoundation() throws(BenchmarkError) -> Samples {
    let file = fixture.onePack.appendingPathComponent("menu.json")
    return try repeatedly { () throws(BenchmarkError) in
      do {
        let pack = try JSONDecoder().decode(PackDocument.self, from: Data(contentsOf: file))
        guard pack.juices?.count == CatalogFixture.juiceCount else {
          throw BenchmarkError.wrongResult("JSONDecoder read \(pack.juices?.count ?? 0) juices")
        }
      } catch let error as BenchmarkError {
        throw error
      } catch {
        throw .failed("JSONDecoder cannot read \(file.path): \(error)")
      }
    }
  }

  /// Milliseconds of each of `options.runs` runs of `body`, after one untimed run.
  private func repeatedly(_ body: () throws(BenchmarkError) -> Void) throws(BenchmarkError)
    -> Samples
  {
    try body()
    var times: [Double] = []
    for _ in 0..<options.runs {
      let start = ContinuousClock.now
      try body()
      times.append((ContinuousClock.now - start).seconds * 1000)
    }
    return Samples(times)
  }
}

/// A pack as `Codable` sees it, for the `JSONDecoder` baseline.
private struct PackDocument: Decodable {
  struct FruitDocument: Decodable {
    let id: String
    let stock: Int?
  }

  struct JuiceDocument: Decodable {
    let id: String
    let ingredients: [Ingredient]
  }

  let fruits: [FruitDocument]?
  let juices: [JuiceDocument]?
}
