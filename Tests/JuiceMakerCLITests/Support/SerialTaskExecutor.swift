import Dispatch
import Synchronization

/// Runs its jobs one at a time in the order they come, on a serial dispatch queue: a
/// cooperative pool one thread wide that the test owns.
final class SerialTaskExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "JuiceMakerCLITests.serial")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

/// A flag one task raises and others read.
final class AtomicFlag: Sendable {
  private let raised = Atomic(false)

  /// Whether the flag was raised.
  var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }

  /// Raises the flag.
  func raise() {
    raised.store(true, ordering: .sequentiallyConsistent)
  }
}
