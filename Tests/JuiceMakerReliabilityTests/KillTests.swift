import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

/// Order loops in a child process killed with `SIGKILL` at random moments: after
/// each kill the store opens, no stock is negative, and replaying the journal from
/// the initial levels gives every level, one consistent entry at a time.
@Suite(.serialized)
struct KillTests {
  /// How a child places orders.
  enum Workload: CaseIterable {
    /// `rush --store`: four shops taking turns, restocking every ten orders.
    case rush
    /// `rush --store --threads`: four shops on four threads.
    case rushOnThreads
    /// `shop` fed orders and stock edits on standard input.
    case shop
  }

  static let kills = 24

  @Test func killedOrderLoopsLeaveAConsistentStore() throws {
    let workspace = try Workspace("kill")
    let store = workspace.path("store/store.sqlite")
    let catalog = try Stores.shippedCatalog()
    var random = SplitMix64(seed: 0x4B49_4C4C)
    let input = try Self.shopInput(&random, in: workspace)
    var killed = 0
    var entries = 0
    var killedWhileWriting = 0
    let clock = ContinuousClock()
    let start = clock.now
    for round in 0..<Self.kills {
      // The first rounds start from no store and kill `init` while it creates one; what
      // it left is finished by a second `init`, and the order loop then dies young.
      if round < 4 {
        for suffix in ["", "-wal", "-shm"] {
          try? FileManager.default.removeItem(atPath: store + suffix)
        }
        try Self.initializeAndKill(
          store: store, workspace: workspace, round: round,
          after: .milliseconds(Int(random.next() % 40)))
      }
      // Later rounds die at a random moment after the child's first write.
      let delay = round < 4 ? Int(random.next() % 60) : Int(random.next() % 250)
      let workload = Workload.allCases[round % Workload.allCases.count]
      if try Self.runAndKill(
        workload, store: store, input: input, workspace: workspace, round: round,
        after: .milliseconds(delay), waitingForWrites: round >= 4)
      {
        killed += 1
      }
      let previous = round < 4 ? 0 : entries
      entries = try Self.expectConsistent(store: store, catalog: catalog, round: round)
      if entries > previous { killedWhileWriting += 1 }
    }
    let elapsed = clock.now - start
    print(
      "kill: \(killed) children killed with SIGKILL in \(elapsed), \(killedWhileWriting) after "
        + "writing orders; the journal holds \(entries) entries")
    #expect(killed >= 20)
    #expect(killedWhileWriting >= 10, "too few children were killed in the middle of their orders")
  }

  /// Runs `init` and kills it with `SIGKILL` after `delay` unless it ended first, then runs
  /// `init` again to the end: it creates the store in what the first one left (nothing,
  /// an empty file, a file without tables), or finds the store the first one made.
  static func initializeAndKill(
    store: String, workspace: Workspace, round: Int, after delay: Duration
  ) throws {
    let arguments = [
      "--recipes", Paths.recipes.path, "--localization", Paths.localization.path, "--store", store,
      "--lang", "en", "init",
    ]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.binary)
    process.arguments = arguments
    process.environment = workspace.environment
    process.currentDirectoryURL = workspace.url.appendingPathComponent("cwd")
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    if done.wait(timeout: .now() + Double(delay.components.attoseconds) / 1e18) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      _ = done.wait(timeout: .now() + 10)
    }
    process.waitUntilExit()
    let again = try JuiceMakerProcess.run(arguments, in: workspace)
    #expect([0, 65].contains(again.status), "round \(round): init after a killed init: \(again)")
  }

  /// Runs a workload and kills it after `delay`, counted from its first write to
  /// the store's log when `waitingForWrites`, else from its start.
  ///
  /// - Returns: Whether the child was still running and died of the signal.
  static func runAndKill(
    _ workload: Workload, store: String, input: URL, workspace: Workspace, round: Int,
    after delay: Duration, waitingForWrites: Bool
  ) throws -> Bool {
    let logBefore = modificationTime(store + "-wal")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.binary)
    let common = [
      "--recipes", Paths.recipes.path, "--localization", Paths.localization.path, "--store", store,
      "--lang", "en", "--shop", "shop-\(round)",
    ]
    switch workload {
    case .rush: process.arguments = common + ["rush", "--orders", "1000000", "--seed", "\(round)"]
    case .rushOnThreads:
      process.arguments =
        common + ["rush", "--threads", "--orders", "1000000", "--seed", "\(round)"]
    case .shop: process.arguments = common + ["shop"]
    }
    process.environment = workspace.environment
    process.currentDirectoryURL = workspace.url.appendingPathComponent("cwd")
    process.standardInput = try FileHandle(forReadingFrom: input)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    if waitingForWrites {
      let deadline = ContinuousClock.now + .seconds(20)
      while modificationTime(store + "-wal") == logBefore, ContinuousClock.now < deadline,
        process.isRunning
      {
        usleep(2_000)
      }
      #expect(
        modificationTime(store + "-wal") != logBefore, "round \(round): \(workload) never wrote")
    }
    if done.wait(timeout: .now() + Double(delay.components.attoseconds) / 1e18) == .success {
      process.waitUntilExit()
      Issue.record("round \(round): \(workload) ended by itself: \(process.terminationStatus)")
      return false
    }
    kill(process.processIdentifier, SIGKILL)
    _ = done.wait(timeout: .now() + 10)
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
  }

  /// The last modification of a file, in nanoseconds, or `nil` when it is absent.
  static func modificationTime(_ path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    #if canImport(Darwin)
      return Int(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int(status.st_mtimespec.tv_nsec)
    #else
      return Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
    #endif
  }

  /// Opens the store and checks it against its journal.
  ///
  /// - Returns: The number of journal entries.
  static func expectConsistent(store: String, catalog: Catalog, round: Int) throws -> Int {
    let storage = try SQLiteStockStorage(path: store, fruits: catalog.fruits)
    let levels = try storage.levels()
    let initial = try storage.initialLevels()
    let journal = try storage.journal(JournalQuery()).sorted { $0.sequence < $1.sequence }
    #expect(levels.allSatisfy { $0 >= 0 }, "round \(round): negative stock \(levels)")
    var replayed = initial
    for entry in journal {
      for change in entry.changes {
        #expect(
          replayed[change.fruit, default: 0] == change.before,
          "round \(round): entry \(entry.sequence) starts \(change.fruit) from \(change.before)")
        replayed[change.fruit] = change.after
      }
      #expect(
        replayed.values.allSatisfy { $0 >= 0 },
        "round \(round): entry \(entry.sequence) leaves negative stock")
      expectMeaningful(entry, catalog: catalog, after: replayed, round: round)
    }
    for (fruit, level) in zip(storage.fruits, levels) {
      #expect(
        replayed[fruit] == level,
        "round \(round): \(fruit) is \(level), initial + Σ journal gives \(replayed[fruit] ?? -1)")
    }
    return journal.count
  }

  /// Checks that an entry's changes are what its kind, subject and count say.
  static func expectMeaningful(
    _ entry: JournalEntry, catalog: Catalog, after levels: [Fruit.ID: Int], round: Int
  ) {
    let expected: [Fruit.ID: Int]?
    switch (entry.operation.action, entry.outcome) {
    case (_, .refused), (_, .conflict), (.limits, .done):
      expected = [:]
    case (.order(let juice, let count), .done):
      expected = catalog.juice(juice).map { juice in
        Dictionary(uniqueKeysWithValues: juice.ingredients.map { ($0.fruit, -$0.count * count) })
      }
    case (.add(let fruit, let count), .done):
      expected = [fruit: count]
    case (.remove(let fruit, let count), .done):
      expected = [fruit: -count]
    case (.set(let fruit, let level, _), .done):
      #expect(
        levels[fruit] == level, "round \(round): entry \(entry.sequence) sets \(fruit) to \(level)")
      return
    }
    let changes = Dictionary(
      uniqueKeysWithValues: entry.changes.map { ($0.fruit, $0.after - $0.before) })
    #expect(
      changes == expected?.filter { $0.value != 0 },
      "round \(round): entry \(entry.sequence) (\(entry.operation.action)) changed \(entry.changes)"
    )
  }

  /// Thousands of shop lines: orders by number (answering no when refused) and
  /// stock screens that add, remove and set.
  static func shopInput(_ random: inout SplitMix64, in workspace: Workspace) throws -> URL {
    var text = ""
    for _ in 0..<20_000 {
      if random.next() % 5 == 0 {
        text += "s\n+ kiwi 7\n- banana 1\n= mango 15\n+ strawberry 30\nclose\n"
      } else {
        text += "\(1 + random.next() % 7)\nno\n"
      }
    }
    let url = workspace.url.appendingPathComponent("shop-input.txt")
    try Data(text.utf8).write(to: url)
    return url
  }
}
