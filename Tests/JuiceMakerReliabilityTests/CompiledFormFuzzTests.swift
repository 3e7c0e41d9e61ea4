import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerCatalog
@testable import JuiceMakerLocalization

/// Seeded mutation fuzzing of the compiled forms' readers, past their checksum: what a
/// hostile cache file with a right checksum could hand them.
///
/// The property: reading never crashes; it refuses (`Damaged`) or gives values that the
/// checks parsing makes accept, and compiling what it gave and reading that again gives the
/// same thing. Seeds, iterations and time are set as for ``FuzzTests``.
struct CompiledFormFuzzTests {
  /// Sound bodies to mutate: the shipped packs and a priced one.
  static let packBodies: [[UInt8]] = {
    var sources = ["fruits.json", "juices.json"].compactMap {
      FileManager.default.contents(atPath: Paths.recipes.appendingPathComponent($0).path)
        .map { [UInt8]($0) }
    }
    sources.append(
      Array(
        #"""
        {"currency": "USD", "fruits": [{"id": "kiwi", "stock": 4, "min": 1, "par": 9}],
         "juices": [{"id": "kiwi-juice", "price": "4.50",
                     "ingredients": [{"fruit": "kiwi", "count": 3}]}]}
        """#.utf8))
    return sources.compactMap { source in
      let (pack, problems) = PackDecoder.decode(source, file: "seed.json")
      return problems.isEmpty ? pack.compiled() : nil
    }
  }()

  /// Sound bodies to mutate: the shipped catalogs.
  static let catalogBodies: [[UInt8]] = {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: Paths.localization.path)) ?? []
    return names.sorted().compactMap { name in
      guard
        let data = FileManager.default.contents(
          atPath: Paths.localization.appendingPathComponent(name).path),
        let body = try? StringCatalogFile.compiledBody([UInt8](data), file: name)
      else { return nil }
      return body
    }
  }()

  @Test func mutatedPackFormsAreRefusedOrReadSoundly() {
    #expect(Self.packBodies.count == 3)
    var mutator = Mutator(seed: FuzzTests.seed &+ 11)
    var failures = FuzzFailures("compiled pack reader")
    var read = 0
    var budget = FuzzBudget(iterations: FuzzTests.scale)
    while let iteration = budget.next() {
      let input = mutator.mutate(
        Self.packBodies[iteration % Self.packBodies.count], others: Self.packBodies)
      guard let pack = Self.pack(input) else { continue }
      read += 1
      if !pack.valueProblems().isEmpty {
        failures.record("read a pack with problems", input)
      }
      let again = pack.compiled()
      if Self.pack(again)?.compiled() != again {
        failures.record("compiling what was read does not read back the same", input)
      }
    }
    print("fuzz: \(budget) compiled pack mutations, \(read) read")
    failures.expectNone()
  }

  @Test func mutatedCatalogFormsAreRefusedOrReadSoundly() {
    #expect(Self.catalogBodies.count >= 3)
    var mutator = Mutator(seed: FuzzTests.seed &+ 13)
    var failures = FuzzFailures("compiled catalog reader")
    var read = 0
    var budget = FuzzBudget(iterations: FuzzTests.scale / 4)
    let selections: [StringCatalog.Selection] = [
      .everything, .language("ko", omittedPrefixes: ["juice."], keptKeys: ["juice.kiwi-juice"]),
    ]
    while let iteration = budget.next() {
      let input = mutator.mutate(
        Self.catalogBodies[iteration % Self.catalogBodies.count], others: Self.catalogBodies)
      for selection in selections {
        guard let file = Self.catalog(input, selection: selection) else { continue }
        read += 1
        let again = file.file.compiled(duplicates: file.duplicates)
        if Self.catalog(again, selection: selection).map({
          $0.file.compiled(duplicates: $0.duplicates)
        }) != again {
          failures.record("compiling what was read does not read back the same", input)
        }
      }
    }
    print("fuzz: \(budget) compiled catalog mutations, \(read) read")
    failures.expectNone()
  }

  private static func pack(_ body: [UInt8]) -> Pack? {
    body.withUnsafeBytes { buffer in
      var reader = CompiledReader(buffer)
      guard let pack = try? Pack(compiled: &reader, file: "fuzz.json"), reader.isAtEnd else {
        return nil
      }
      return pack
    }
  }

  private static func catalog(_ body: [UInt8], selection: StringCatalog.Selection) -> (
    file: StringCatalogFile, duplicates: [JSONParser.DuplicateKey]
  )? {
    body.withUnsafeBytes { buffer in
      var reader = CompiledReader(buffer)
      guard
        let read = try? StringCatalogFile.decode(compiled: &reader, selection: selection),
        reader.isAtEnd
      else { return nil }
      return read
    }
  }
}
