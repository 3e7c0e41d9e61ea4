import Foundation
import Testing

/// Broken string catalogs: every malformed format specifier, plural variations
/// without `other`, substitutions naming missing arguments, entries with only
/// variations, unknown states, wrong types, and files that are not catalogs.
struct CatalogCorpusTests {
  @Test(arguments: CorpusCase.cases(.catalog))
  func brokenCatalogIsReportedClearly(_ item: CorpusCase) throws {
    try CorpusRunner.run(item)
  }
}
