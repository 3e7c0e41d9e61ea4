import CThreadPlacement
import Testing

@testable import JuiceMakerCatalog

/// The package's own threads.
struct ThreadsTests {
  /// A detached thread runs its work, and on Linux it runs with the cores its parent may run
  /// on: it starts away from its parent's core, then takes the parent's set back.
  @Test func aDetachedThreadRunsItsWorkWithItsParentsCores() throws {
    let finished = LockedValue<[Int]?>(nil)
    let parent = Self.cores()
    #expect(
      Threads.detach {
        finished.withLock { $0 = Self.cores() }
      })
    let deadline = ContinuousClock.now + .seconds(10)
    while finished.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
      Threads.sleep(seconds: 0.001)
    }
    let child = try #require(finished.withLock { $0 }, "the thread never ran")
    #expect(child == parent)
  }

  /// The cores the calling thread may run on, by number; empty where the system does not
  /// say.
  private static func cores() -> [Int] {
    var cores = juice_cores()
    guard juice_current_cores(&cores) == 1 else { return [] }
    return withUnsafeBytes(of: cores.bits) { bits in
      bits.indices.flatMap { index in
        (0..<8).filter { bits[index] & 1 << $0 != 0 }.map { index * 8 + $0 }
      }
    }
  }
}
