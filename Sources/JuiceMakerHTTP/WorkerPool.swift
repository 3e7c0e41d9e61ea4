import Dispatch
import Synchronization

/// A fixed set of threads that run jobs in the order they come: the handlers that may
/// block, off the daemon's threads.
final class WorkerPool: Sendable {
  private struct Queue {
    var jobs: [@Sendable () -> Void] = []
    var next = 0
    var stopped = false
  }

  private let queue = Mutex(Queue())
  private let ready = DispatchSemaphore(value: 0)
  private let threads: Int

  init(threads: Int) {
    self.threads = threads
    // A serial queue each, which keeps a thread of its own for as long as the pool runs.
    for index in 0..<threads {
      DispatchQueue(label: "juice-maker handler \(index + 1)").async { [self] in work() }
    }
  }

  /// Runs `job` on one of the threads.
  func run(_ job: @escaping @Sendable () -> Void) {
    queue.withLock { $0.jobs.append(job) }
    ready.signal()
  }

  /// Lets the threads end once the jobs queued are done.
  func stop() {
    queue.withLock { $0.stopped = true }
    for _ in 0..<threads { ready.signal() }
  }

  private func work() {
    while true {
      ready.wait()
      let job: (@Sendable () -> Void)? = queue.withLock { queue in
        guard queue.next < queue.jobs.count else { return nil }
        let job = queue.jobs[queue.next]
        queue.next += 1
        if queue.next > 64, queue.next * 2 > queue.jobs.count {
          queue.jobs.removeFirst(queue.next)
          queue.next = 0
        }
        return job
      }
      if let job {
        job()
      } else if queue.withLock({ $0.stopped }) {
        return
      }
    }
  }
}
