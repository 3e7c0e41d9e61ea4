import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// Which store failures the shops show as "busy": a lock another process or session holds.
struct ShopHealthTests {
  @Test(arguments: ["SQLITE_BUSY (5)", "SQLITE_LOCKED (6)", "55P03", "57014"])
  func aHeldLockShowsBusy(code: String) {
    let cause = StorageFailure(code: code, message: "held", purpose: "locking stock rows")
    #expect(ShopHealth(.unavailable(store: "s", cause: cause)) == .busy)
  }

  @Test(arguments: ["08006", "57P01", "SQLITE_CANTOPEN (14)", ""])
  func aLostStoreShowsReconnecting(code: String) {
    let cause = StorageFailure(code: code, message: "gone", purpose: "reading levels")
    #expect(ShopHealth(.unavailable(store: "s", cause: cause)) == .reconnecting)
  }
}
