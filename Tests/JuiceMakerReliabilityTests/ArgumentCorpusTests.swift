import Foundation
import Testing

/// Broken command lines: unknown options, missing values, counts that are not
/// positive whole numbers, unknown names, empty and 100 KB arguments.
struct ArgumentCorpusTests {
  @Test(arguments: CorpusCase.cases(.argument))
  func brokenCommandLineIsAUsageError(_ item: CorpusCase) throws {
    try CorpusRunner.run(item)
  }
}
