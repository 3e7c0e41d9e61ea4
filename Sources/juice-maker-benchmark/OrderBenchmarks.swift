import JuiceMakerKit
import Synchronization

/// Orders per second through `JuiceMaker.make` on a shared in-memory `FruitStore`, and
/// through the baselines (`DictionaryStore`, `ActorStore`, `MutexStore`), on 1, 2 and 8
/// OS threads and on 8 tasks.
///
/// Workers share one store; each has its own `JuiceMaker` and starts at its own place in
/// the plan (see `Menu`); the total is the sum of every worker's orders over the wall time
/// from their common start to the last one's end. Every store starts with plenty of each
/// fruit, so every order succeeds; each run checks that every order was made and that the
/// store lost exactly what the orders took.
struct OrderBenchmarks {
  let options: Options
  let menu = Menu()

  /// How one figure places its orders.
  private enum Client {
    /// `JuiceMaker.make(_:)` with a `Juice` value.
    case juiceMaker
    /// `JuiceMaker.make(_:)` with a `Juice.ID`, looked up on every order.
    case juiceMakerByID
    /// `JuiceMaker.make(_:)` with a `Juice.Handle`.
    case juiceMakerByHandle
    /// `DictionaryStore.make(_:)` with the juice's name.
    case dictionary
    /// `ActorStore.make(_:)` with the juice's name, awaited.
    case actor
    /// `MutexStore.make(_:)` with the juice's index.
    case mutex
  }

  /// Where the workers run.
  private enum Workers {
    case threads(Int)
    case tasks(Int)

    var count: Int {
      switch self {
      case .threads(let count), .tasks(let count): count
      }
    }
  }

  private struct Measurement {
    let name: String
    let client: Client
    let workers: Workers
    let mixed: Bool
    var goal: Figure.Goal?
  }

  private static let measurements: [Measurement] = [
    .init(
      name: "orders.juice_maker.1_thread", client: .juiceMaker, workers: .threads(1),
      mixed: false, goal: .atLeast(40_000_000)),
    .init(
      name: "orders.juice_maker.2_threads", client: .juiceMaker, workers: .threads(2),
      mixed: false),
    .init(
      name: "orders.juice_maker.8_threads", client: .juiceMaker, workers: .threads(8),
      mixed: false, goal: .atLeast(10_000_000)),
    .init(
      name: "orders.juice_maker.8_tasks", client: .juiceMaker, workers: .tasks(8), mixed: false,
      goal: .atLeast(10_000_000)),
    .init(
      name: "orders.juice_maker.1_thread_mixed", client: .juiceMaker, workers: .threads(1),
      mixed: true),
    .init(
      name: "orders.juice_maker.8_threads_mixed", client: .juiceMaker, workers: .threads(8),
      mixed: true),
    .init(
      name: "orders.juice_maker.1_thread_handle", client: .juiceMakerByHandle,
      workers: .threads(1), mixed: false),
    .init(
      name: "orders.juice_maker.8_threads_handle", client: .juiceMakerByHandle,
      workers: .threads(8), mixed: false),
    .init(
      name: "orders.juice_maker.1_thread_mixed_handle", client: .juiceMakerByHandle,
      workers: .threads(1), mixed: true),
    .init(
      name: "orders.juice_maker.1_thread_by_id", client: .juiceMakerByID, workers: .threads(1),
      mixed: false),
    .init(
      name: "orders.dictionary_nslock.1_thread", client: .dictionary, workers: .threads(1),
      mixed: false),
    .init(
      name: "orders.dictionary_nslock.2_threads", client: .dictionary, workers: .threads(2),
      mixed: false),
    .init(
      name: "orders.dictionary_nslock.8_threads", client: .dictionary, workers: .threads(8),
      mixed: false),
    .init(
      name: "orders.dictionary_nslock.8_tasks", client: .dictionary, workers: .tasks(8),
      mixed: false),
    .init(
      name: "orders.dictionary_nslock.1_thread_mixed", client: .dictionary, workers: .threads(1),
      mixed: true),
    .init(
      name: "orders.mutex_dense.1_thread", client: .mutex, workers: .threads(1), mixed: false),
    .init(
      name: "orders.mutex_dense.8_threads", client: .mutex, workers: .threads(8), mixed: false),
    .init(name: "orders.actor.1_task", client: .actor, workers: .tasks(1), mixed: false),
    .init(name: "orders.actor.8_tasks", client: .actor, workers: .tasks(8), mixed: false),
  ]

  private static let ratios:
    [(name: String, numerator: String, denominator: String, goal: Figure.Goal?)] = [
      (
        "orders.ratio.1_thread_vs_dictionary_nslock", "orders.juice_maker.1_thread",
        "orders.dictionary_nslock.1_thread", .atLeast(6)
      ),
      (
        "orders.ratio.1_thread_mixed_vs_dictionary_nslock_mixed",
        "orders.juice_maker.1_thread_mixed", "orders.dictionary_nslock.1_thread_mixed", nil
      ),
      ("orders.ratio.1_thread_vs_actor", "orders.juice_maker.1_thread", "orders.actor.1_task", nil),
      (
        "orders.ratio.8_threads_vs_1_thread", "orders.juice_maker.8_threads",
        "orders.juice_maker.1_thread", .atLeast(0.25)
      ),
      (
        "orders.ratio.8_tasks_vs_1_thread", "orders.juice_maker.8_tasks",
        "orders.juice_maker.1_thread", nil
      ),
      (
        "orders.ratio.8_threads_vs_dictionary_nslock", "orders.juice_maker.8_threads",
        "orders.dictionary_nslock.8_threads", nil
      ),
      ("orders.ratio.8_tasks_vs_actor", "orders.juice_maker.8_tasks", "orders.actor.8_tasks", nil),
      (
        "orders.ratio.mutex_dense_8_threads_vs_1_thread", "orders.mutex_dense.8_threads",
        "orders.mutex_dense.1_thread", nil
      ),
    ]

  @MainActor
  func run(into report: inout Report) async throws(BenchmarkError) {
    let wantedRatios = Self.ratios.filter { options.wants($0.name) }
    for measurement in Self.measurements {
      let needed =
        options.wants(measurement.name)
        || wantedRatios.contains {
          $0.numerator == measurement.name || $0.denominator == measurement.name
        }
      guard needed else { continue }
      report.record(
        Figure(
          measurement.name, .ordersPerSecond, try await measure(measurement),
          goal: measurement.goal))
    }
    for ratio in wantedRatios {
      report.recordRatio(ratio.name, ratio.numerator, ratio.denominator, goal: ratio.goal)
    }
  }

  // MARK: - Running

  /// What the workers of one run did.
  private struct Work: Sendable {
    /// Runs of the plan completed by each worker.
    var steps: [Int]
    var made = 0
    var refused = 0
  }

  @MainActor
  private func measure(_ measurement: Measurement) async throws(BenchmarkError) -> Samples {
    let plan = measurement.mixed ? menu.mixed : menu.resolved
    let workers = measurement.workers.count
    let stock = try Stock(menu: menu, client: measurement.client, workers: workers)
    return try await Throughput.measure(runs: options.runs, duration: options.runDuration) {
      passes, deadline throws(BenchmarkError) in
      let before = await stock.levels()
      let work = Mutex(Work(steps: [Int](repeating: 0, count: workers)))
      let steps = passes * plan.runs.count
      let elapsed: Duration
      switch measurement.workers {
      case .threads(let count):
        elapsed = Parallel.threads(count) { worker in
          let done = stock.place(plan, steps: steps, worker: worker, deadline: deadline)
          work.withLock { Self.add(done, of: worker, to: &$0) }
        }
      case .tasks(let count):
        elapsed = await Parallel.tasks(count) { worker in
          let done = await stock.placeAsync(plan, steps: steps, worker: worker, deadline: deadline)
          work.withLock { Self.add(done, of: worker, to: &$0) }
        }
      }
      let done = work.withLock { $0 }
      try check(done, of: plan, before: before, after: await stock.levels(), name: measurement.name)
      return Throughput.Timed(operations: done.made, elapsed: elapsed)
    }
  }

  private static func add(_ done: Stock.Done, of worker: Int, to work: inout Work) {
    work.steps[worker] = done.steps
    work.made += done.made
    work.refused += done.refused
  }

  /// Fails unless every order was made and the store lost exactly what they took.
  private func check(
    _ work: Work, of plan: Menu.Plan, before: [String: Int], after: [String: Int], name: String
  ) throws(BenchmarkError) {
    guard work.refused == 0 else {
      throw .wrongResult("\(name): \(work.refused) orders refused with plenty of stock")
    }
    var expected = before
    for (worker, steps) in work.steps.enumerated() {
      let passes = steps / plan.runs.count
      for (fruit, count) in plan.withdrawnPerPass {
        expected[fruit, default: 0] -= count * passes
      }
      for step in (passes * plan.runs.count)..<steps {
        let run = plan.run(step, worker: worker)
        for ingredient in menu.catalog.juices[run.juice].ingredients {
          expected[ingredient.fruit.rawValue, default: 0] -= ingredient.count * run.count
        }
      }
    }
    guard expected == after else {
      throw .wrongResult("\(name): the store holds \(after), expected \(expected)")
    }
  }
}

// MARK: - The stores under test

extension OrderBenchmarks {
  /// One store under test, with a client per worker.
  private struct Stock: Sendable {
    /// What one worker did.
    struct Done: Sendable {
      var steps = 0
      var made = 0
      var refused = 0
    }

    let menu: Menu
    let client: Client
    let store: FruitStore
    let dictionary: DictionaryStore
    let actor: ActorStore
    let mutex: MutexStore
    let shops: [JuiceMaker]

    init(menu: Menu, client: Client, workers: Int) throws(BenchmarkError) {
      self.menu = menu
      self.client = client
      do {
        store = try FruitStore(
          stock: Dictionary(
            uniqueKeysWithValues: menu.catalog.fruits.map { ($0.id, Menu.plentiful) }))
      } catch {
        throw .failed("cannot create the store: \(error)")
      }
      let store = self.store
      shops = (0..<workers).map {
        JuiceMaker(name: "shop-\($0 + 1)", catalog: menu.catalog, store: store)
      }
      dictionary = DictionaryStore(stock: menu.initialStock, recipes: menu.recipes)
      actor = ActorStore(stock: menu.initialStock, recipes: menu.recipes)
      mutex = MutexStore(menu: menu)
    }

    /// Every level, by fruit name.
    func levels() async -> [String: Int] {
      switch client {
      case .juiceMaker, .juiceMakerByID, .juiceMakerByHandle:
        Dictionary(
          uniqueKeysWithValues: ((try? store.snapshot()) ?? [:]).map { ($0.key.rawValue, $0.value) }
        )
      case .dictionary: dictionary.snapshot()
      case .mutex: mutex.snapshot(menu)
      case .actor: await actor.snapshot()
      }
    }

    /// Places the first `steps` runs of the plan from a thread, stopping early once past
    /// the deadline.
    func place(_ plan: Menu.Plan, steps: Int, worker: Int, deadline: ContinuousClock.Instant)
      -> Done
    {
      var cursor = Cursor(plan: plan, steps: steps, worker: worker, deadline: deadline)
      switch client {
      case .juiceMaker:
        Self.place(&cursor, shop: shops[worker], juices: menu.catalog.juices)
      case .juiceMakerByID:
        Self.place(&cursor, shop: shops[worker], ids: menu.ids)
      case .juiceMakerByHandle:
        Self.place(&cursor, shop: shops[worker], handles: menu.handles)
      case .dictionary:
        Self.place(&cursor, store: dictionary, names: menu.names)
      case .mutex:
        Self.place(&cursor, store: mutex)
      case .actor:
        preconditionFailure("the actor is measured on tasks only")
      }
      return cursor.done
    }

    /// The same from a task; the actor is awaited on every order.
    func placeAsync(
      _ plan: Menu.Plan, steps: Int, worker: Int, deadline: ContinuousClock.Instant
    ) async -> Done {
      guard case .actor = client else {
        return place(plan, steps: steps, worker: worker, deadline: deadline)
      }
      var cursor = Cursor(plan: plan, steps: steps, worker: worker, deadline: deadline)
      while let run = cursor.next() {
        let name = menu.names[run.juice]
        var made = 0
        for _ in 0..<run.count where await actor.make(name) {
          made &+= 1
        }
        cursor.finish(run, made: made)
      }
      return cursor.done
    }

    // The order loops, one per client so each compiles without indirection: each run's
    // juice is resolved once, then ordered `count` times by that value.

    @inline(never)
    private static func place(_ cursor: inout Cursor, shop: JuiceMaker, juices: [Juice]) {
      while let run = cursor.next() {
        let juice = juices[run.juice]
        var made = 0
        for _ in 0..<run.count {
          do {
            try shop.make(juice)
            made &+= 1
          } catch {}
        }
        cursor.finish(run, made: made)
      }
    }

    @inline(never)
    private static func place(_ cursor: inout Cursor, shop: JuiceMaker, ids: [Juice.ID]) {
      while let run = cursor.next() {
        let id = ids[run.juice]
        var made = 0
        for _ in 0..<run.count {
          do {
            try shop.make(id)
            made &+= 1
          } catch {}
        }
        cursor.finish(run, made: made)
      }
    }

    @inline(never)
    private static func place(_ cursor: inout Cursor, shop: JuiceMaker, handles: [Juice.Handle]) {
      while let run = cursor.next() {
        let handle = handles[run.juice]
        var made = 0
        for _ in 0..<run.count {
          do {
            try shop.make(handle)
            made &+= 1
          } catch {}
        }
        cursor.finish(run, made: made)
      }
    }

    @inline(never)
    private static func place(_ cursor: inout Cursor, store: DictionaryStore, names: [String]) {
      while let run = cursor.next() {
        let name = names[run.juice]
        var made = 0
        for _ in 0..<run.count where store.make(name) {
          made &+= 1
        }
        cursor.finish(run, made: made)
      }
    }

    @inline(never)
    private static func place(_ cursor: inout Cursor, store: MutexStore) {
      while let run = cursor.next() {
        var made = 0
        for _ in 0..<run.count where store.make(run.juice) {
          made &+= 1
        }
        cursor.finish(run, made: made)
      }
    }
  }

  /// A worker's way through the plan: which run is next, what it did, when to stop.
  private struct Cursor {
    let runs: [Menu.Plan.Run]
    let steps: Int
    let deadline: ContinuousClock.Instant
    var index: Int
    var done = Stock.Done()
    var sinceCheck = 0

    init(plan: Menu.Plan, steps: Int, worker: Int, deadline: ContinuousClock.Instant) {
      runs = plan.runs
      self.steps = steps
      self.deadline = deadline
      index = plan.first(worker: worker)
    }

    /// The next run, or `nil` after the last step or once past the deadline (checked
    /// every 4,096 orders).
    @inline(__always)
    mutating func next() -> Menu.Plan.Run? {
      guard done.steps < steps else { return nil }
      if sinceCheck >= 4096 {
        sinceCheck = 0
        if ContinuousClock.now >= deadline { return nil }
      }
      let run = runs[index]
      index = index == runs.count - 1 ? 0 : index + 1
      return run
    }

    @inline(__always)
    mutating func finish(_ run: Menu.Plan.Run, made: Int) {
      done.steps &+= 1
      done.made &+= made
      done.refused &+= run.count &- made
      sinceCheck &+= run.count
    }
  }
}
