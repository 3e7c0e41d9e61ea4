import Dispatch
import Foundation
import Synchronization

/// Runs work on several OS threads or tasks at once and times the whole.
enum Parallel {
  /// Runs `body` on `count` new OS threads released together.
  ///
  /// Every thread is created and parked before the clock starts; the time runs from
  /// the release until the last thread finishes.
  ///
  /// - Parameters:
  ///   - count: How many threads.
  ///   - body: The work of one thread, given its index.
  /// - Returns: The wall time from release to the end of the last thread.
  static func threads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Duration {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
      done.enter()
      let thread = Thread {
        ready.signal()
        go.wait()
        body(index)
        done.leave()
      }
      thread.start()
    }
    for _ in 0..<count { ready.wait() }
    let start = ContinuousClock.now
    for _ in 0..<count { go.signal() }
    done.wait()
    return ContinuousClock.now - start
  }

  /// Runs `body` in `count` child tasks of one task group on the cooperative pool,
  /// awaiting them.
  ///
  /// - Parameters:
  ///   - count: How many tasks.
  ///   - body: The work of one task, given its index.
  /// - Returns: The wall time from creating the group until every task finished.
  static func tasks(_ count: Int, _ body: @escaping @Sendable (Int) async -> Void) async
    -> Duration
  {
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask { await body(index) }
      }
    }
    return ContinuousClock.now - start
  }
}
