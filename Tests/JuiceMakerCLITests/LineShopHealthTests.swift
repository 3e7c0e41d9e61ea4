import Foundation
import Testing

/// The line shop when another process holds the SQLite store locked longer than shops
/// wait for each other: it says the store is busy, waits, and makes the order once when
/// the lock goes.
struct LineShopHealthTests {
  @Test func anOrderWaitsForAHeldLockAndIsMadeOnce() async throws {
    let sandbox = try Sandbox()
    #expect(try await sandbox.stock()["banana"] == 10, "the store exists")
    let lock = try HeldLock(path: sandbox.store)
    // Timed on a thread of its own, as a task's sleep can be held up by other tests' tasks.
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 6)
      lock.release()
    }
    let outcome = try await sandbox.run(["--lang", "en", "shop", "--plain"], input: "2\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.errorLines.first == "The store is busy, retrying… (1 waiting)", "\(outcome)")
    #expect(outcome.stdout.contains("Here is your Banana Juice. Enjoy!"))
    #expect(try await sandbox.stock()["banana"] == 8, "made once")
  }
}
