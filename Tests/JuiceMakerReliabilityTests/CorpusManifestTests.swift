import Foundation
import Testing

/// The corpus manifest itself: it loads, names are unique, every kind is covered.
struct CorpusManifestTests {
  @Test func manifestLoadsWithEightyCasesOrMore() {
    #expect(CorpusCase.all.count >= 80)
    for kind in CorpusCase.Kind.allCases {
      #expect(CorpusCase.all.contains { $0.kind == kind }, "no \(kind) case")
    }
  }

  @Test func caseNamesAreUnique() {
    let names = CorpusCase.all.map(\.testDescription)
    #expect(Set(names).count == names.count)
  }

  @Test func everyCaseDirectoryBelongsToACase() throws {
    let named = Set(CorpusCase.all.map { $0.input ?? "\($0.kind.directory)/\($0.name)" })
    for kind in CorpusCase.Kind.allCases {
      let directory = Paths.corpus.appendingPathComponent(kind.directory)
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      for entry in entries {
        #expect(named.contains("\(kind.directory)/\(entry)"), "no case uses \(entry)")
      }
    }
  }
}
