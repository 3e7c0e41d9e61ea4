import Foundation
import Testing

/// Broken store files: not SQLite, truncated, an unknown schema, another
/// application's, read-only, not a file, and locked past the busy timeout.
struct StoreFileCorpusTests {
  @Test(arguments: CorpusCase.cases(.store))
  func brokenStoreIsRefusedAndKept(_ item: CorpusCase) throws {
    try CorpusRunner.run(item)
  }

  @Test(
    .disabled(if: Paths.isSuperuser, "the superuser writes in directories whatever their mode"),
    arguments: CorpusCase.cases(.store, needingFileModes: true))
  func unwritableStoreDirectoryIsAnIOError(_ item: CorpusCase) throws {
    try CorpusRunner.run(item)
  }
}
