import Dispatch
import JuiceMakerKit
import Synchronization
import Testing

struct RushTests {
  let catalog = FruitStoreTests.catalog

  func rush(_ store: FruitStore, shops: Int = 3, orders: Int = 2_000, seed: UInt64 = 7) -> Rush {
    Rush(catalog: catalog, store: store, shops: shops, orders: orders, seed: seed)
  }

  @Test(arguments: [Rush.Mode.sequential, .threads, .tasks])
  func everyOrderIsCountedAndStockIsConserved(mode: Rush.Mode) async throws {
    let report = try await rush(FruitStore(catalog: catalog)).run(mode)
    #expect(report.broken == nil)
    #expect(report.failure == nil)
    #expect(report.made + report.refused == 3 * 2_000)
    #expect(report.made > 0)
    #expect(report.refused > 0)
    #expect(report.juices.reduce(0) { $0 + $1.made } == report.made)
    // Every refusal names at least one short fruit and at most every fruit of the
    // longest recipe.
    let short = report.short.reduce(0, +)
    #expect(short >= report.refused)
    #expect(short <= report.refused * 2)
  }

  @Test func theFastPathAndTheJournaledPathAgreeOrderForOrder() async throws {
    // A store with observers takes every order through the journaled path; the same
    // seed in sequential mode must give the same rush as over the fast path.
    let fast = try await rush(FruitStore(catalog: catalog)).run(.sequential)
    let watchedStore = FruitStore(catalog: catalog)
    let observation = watchedStore.observe { _ in }
    let journaled = try await rush(watchedStore).run(.sequential)
    observation.cancel()
    #expect(journaled.made == fast.made)
    #expect(journaled.refused == fast.refused)
    #expect(journaled.juices.map(\.made) == fast.juices.map(\.made))
    #expect(journaled.short == fast.short)
    #expect(journaled.final == fast.final)
  }

  @Test func theSameSeedGivesTheSameSequentialRush() async throws {
    let first = try await rush(FruitStore(catalog: catalog), seed: 11).run(.sequential)
    let second = try await rush(FruitStore(catalog: catalog), seed: 11).run(.sequential)
    let other = try await rush(FruitStore(catalog: catalog), seed: 12).run(.sequential)
    #expect(first.juices.map(\.made) == second.juices.map(\.made))
    #expect(first.final == second.final)
    #expect(first.short == second.short)
    #expect(first.juices.map(\.made) != other.juices.map(\.made) || first.final != other.final)
  }

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
