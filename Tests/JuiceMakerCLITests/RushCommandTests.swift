import Testing

struct RushCommandTests {
  @Test(arguments: ["threads", "tasks"])
  func concurrentRushAgainstTheStoreIsConservedAndJournaled(mode: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run([
      "--json", "rush", "--shops", "4", "--orders", "50", "--\(mode)",
    ])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let report = try outcome.json()
    #expect(report.bool("ok") == true)
    #expect(report.bool("conserved") == true)
    #expect(report.string("mode") == mode)
    let made = try #require(report.int("made"))
    let refused = try #require(report.int("refused"))
    #expect(made + refused == 200)
    #expect(
      report.objects("shops").map { $0.string("name") } == ["shop-1", "shop-2", "shop-3", "shop-4"])
    #expect(try await sandbox.stock() == report.counts("stock"))
    let history = try await sandbox.history()
    let orders = history.filter { $0.string("kind") == "order" }
    #expect(orders.count == 200)
    #expect(orders.filter { $0.string("outcome") == "done" }.count == made)
    // Every shop restocks one fruit every ten orders.
    #expect(history.filter { $0.string("kind") == "add" }.count == 4 * 5)
  }

  /// Run in-process, the command awaits the shops instead of holding its thread: on an
  /// executor one thread wide, a task queued behind the command runs before the command
  /// ends. A command that blocked its thread until the shops finished would keep that task
  /// out until the end.
  @Test(arguments: ["threads", "tasks"])
  func rushInProcessLeavesItsThreadFreeWhileTheShopsRun(mode: String) async throws {
    let sandbox = try Sandbox()
    let started = AtomicFlag()
    let ended = AtomicFlag()
    let arguments = ["--json", "rush", "--shops", "4", "--orders", "5000", "--\(mode)"]
    let (outcome, duringRush) = await withTaskExecutorPreference(SerialTaskExecutor()) {
      await withTaskGroup(of: Event.self) { group in
        group.addTask {
          started.raise()
          let outcome = await sandbox.runInProcess(arguments, useStore: false)
          ended.raise()
          return .ended(outcome)
        }
        group.addTask {
          while !started.isRaised { await Task.yield() }
          return .looked(duringRush: !ended.isRaised)
        }
        var outcome: Outcome?
        var duringRush: Bool?
        for await event in group {
          switch event {
          case .ended(let value): outcome = value
          case .looked(let value): duringRush = value
          }
        }
        return (outcome, duringRush)
      }
    }
    #expect(duringRush == true, "the other task ran only after the command")
    let rush = try #require(outcome)
    #expect(rush.status == 0, "\(rush)")
    let report = try rush.json()
    #expect(report.string("mode") == mode)
    #expect(report.bool("conserved") == true)
    let made = try #require(report.int("made"))
    let refused = try #require(report.int("refused"))
    #expect(made + refused == 4 * 5000)
  }

  @Test func sequentialRushDependsOnlyOnTheSeed() async throws {
    let sandbox = try Sandbox()
    let arguments = ["--json", "rush", "--shops", "3", "--orders", "40", "--seed", "7"]
    let first = await sandbox.runInProcess(arguments, useStore: false)
    let second = await sandbox.runInProcess(arguments, useStore: false)
    #expect(first.status == 0, "\(first)")
    let one = try first.json()
    let two = try second.json()
    #expect(one.string("mode") == "sequential")
    #expect(one.int("made") == two.int("made"))
    #expect(one.int("refused") == two.int("refused"))
    #expect(one.counts("stock") == two.counts("stock"))
    #expect(
      one.objects("shops").map { $0.int("made") } == two.objects("shops").map { $0.int("made") })
  }

  @Test func threadsAndTasksExcludeEachOther() async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["rush", "--threads", "--tasks"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr == "Options --threads and --tasks cannot be used together.\n")
  }
}

/// What a task of `rushInProcessLeavesItsThreadFreeWhileTheShopsRun` reports.
private enum Event: Sendable {
  case ended(Outcome)
  case looked(duringRush: Bool)
}
