import Foundation
import Testing

/// Broken recipe packs: malformed, truncated, invalid UTF-8, deep, huge, strange
/// numbers and ids, duplicate keys, and files that are not files.
struct PackCorpusTests {
  @Test(arguments: CorpusCase.cases(.pack))
  func brokenPackIsRefusedClearly(_ item: CorpusCase) throws {
    try CorpusRunner.run(item)
  }

  @Test(
    .disabled(
      if: Paths.isSuperuser,
      "the superuser reads files whatever their mode; the read-error case covers a failing read"),
    arguments: CorpusCase.cases(.pack, needingFileModes: true))
  func unreadablePackIsRefusedClearly(_ item: CorpusCase) throws {
    try CorpusRunner.run(item)
  }
}
