import JuiceMakerStorageTesting
import Testing

/// Every storage of this package through the public conformance suite.
struct StorageConformanceTests {
  @Test(arguments: StorageUnderTest.all.flatMap { kind in kind.checks.map { (kind, $0) } })
  func storageConforms(_ kind: StockStorageConformance, _ check: StockStorageConformance.Check)
    async throws
  {
    try await kind.run(check)
  }
}
