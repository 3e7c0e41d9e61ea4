import JuiceMakerKit
import JuiceMakerStorageTesting
import Testing

/// Each store is one storage object, shared by every `open()`.
let arrays = StockStorageConformance(name: "arrays", canFail: false) { fruits in
  let storage = ArrayStockStorage(fruits: fruits)
  return ConformanceStore(open: { storage })
}

@Test(arguments: arrays.checks)
func arrayStorageConforms(_ check: StockStorageConformance.Check) async throws {
  try await arrays.run(check)
}
