import Dispatch
import JuiceMakerKit
import Synchronization
import Testing

struct RushTests {
  /// The task awaiting a rush holds no thread while the shops run: on an executor one
  /// thread wide, a task queued behind the rush runs before the rush returns. A rush that
  /// blocked its thread until the shops finished would keep that task out until the end.
  @Test(arguments: [Rush.Mode.threads, .tasks])
  func aRushLeavesItsThreadFreeWhileTheShopsRun(mode: Rush.Mode) async throws {
    let catalog = FruitStoreTests.catalog
    let rush = Rush(
      catalog: catalog, store: FruitStore(catalog: catalog), shops: 4, orders: 20_000, seed: 3)
    let started = AtomicFlag()
    let ended = AtomicFlag()
    let outcome = try await withTaskExecutorPreference(SerialTaskExecutor()) {
      try await withThrowingTaskGroup(of: Event.self) { group in
        group.addTask {
          started.raise()
          let report = try await rush.run(mode)
          ended.raise()
          return .ended(report)
        }
        group.addTask {
          while !started.isRaised { await Task.yield() }
          return .looked(duringRush: !ended.isRaised)
        }
        var report: Rush.Report?
        var duringRush: Bool?
        for try await event in group {
          switch event {
          case .ended(let value): report = value
          case .looked(let value): duringRush = value
          }
        }
        return (report: report, duringRush: duringRush)
      }
    }
    #expect(outcome.duringRush == true, "the other task ran only after the rush")
    let report = try #require(outcome.report)
    #expect(report.made + report.refused == 4 * 20_000)
    #expect(report.broken == nil)
    #expect(report.failure == nil)
  }
}

/// What a task of the test reports.
private enum Event: Sendable {
  case ended(Rush.Report)
  case looked(duringRush: Bool)
}

/// A flag one task raises and others read.
private final class AtomicFlag: Sendable {
  private let raised = Atomic(false)

  var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }

  func raise() {
    raised.store(true, ordering: .sequentiallyConsistent)
  }
}

/// Runs its jobs one at a time in the order they come, on a serial dispatch queue: a
/// cooperative pool one thread wide that the test owns.
private final class SerialTaskExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "RushTests.serial")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
