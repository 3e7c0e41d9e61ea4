import Testing

struct RushCommandTests {
  @Test func threadedRushAgainstTheStoreIsConservedAndJournaled() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run([
      "--json", "rush", "--shops", "4", "--orders", "50", "--threads",
    ])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let report = try outcome.json()
    #expect(report.bool("ok") == true)
    #expect(report.bool("conserved") == true)
    #expect(report.string("mode") == "threads")
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

  @Test func sequentialRushDependsOnlyOnTheSeed() throws {
    let sandbox = try Sandbox()
    let arguments = ["--json", "rush", "--shops", "3", "--orders", "40", "--seed", "7"]
    let first = sandbox.runInProcess(arguments, useStore: false)
    let second = sandbox.runInProcess(arguments, useStore: false)
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

  @Test func threadsAndTasksExcludeEachOther() throws {
    let sandbox = try Sandbox()
    let outcome = sandbox.runInProcess(["rush", "--threads", "--tasks"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr == "Options --threads and --tasks cannot be used together.\n")
  }
}
