import Foundation

/// The benchmark run: every group of figures, in order, into one report.
struct Benchmark {
  let options: Options

  /// Runs every wanted group.
  ///
  /// It runs on the main actor, like the groups it calls: `Parallel`'s timed runs wait
  /// on the calling thread, which therefore must not be one of the cooperative pool's.
  ///
  /// - Throws: `BenchmarkError` when a measurement cannot run or gives a wrong result.
  @MainActor
  func run() async throws(BenchmarkError) {
    if !options.child.isEmpty {
      try ChildMode.run(options.child)
      return
    }
    let paths = try Paths(root: options.root, juiceMaker: options.juiceMaker)
    var report = Report(options: options)
    Report.note(
      "juice-maker-benchmark\(options.quick ? " --quick" : ""): \(options.runs) runs per figure,"
        + " \(ProcessInfo.processInfo.activeProcessorCount) cores, load \(Self.loadAverage),"
        + " root \(paths.root.path)")
    let cpuAtStart = CPUTimes.read()
    if options.wantsGroup("orders") {
      try await OrderBenchmarks(options: options).run(into: &report)
    }
    if options.wantsGroup("rush") {
      try await RushBenchmarks(options: options, paths: paths).run(into: &report)
      try await OrderCostBenchmarks(options: options).run(into: &report)
    }
    if options.wantsGroup("catalog") || options.wantsGroup("memory") {
      let fixture = try CatalogFixture.make()
      defer { fixture.remove() }
      if options.wantsGroup("catalog") {
        try CatalogBenchmarks(options: options, fixture: fixture).run(into: &report)
      }
      if options.wantsGroup("memory") {
        try MemoryBenchmarks(options: options, fixture: fixture, paths: paths).run(into: &report)
      }
    }
    if options.wantsGroup("startup") {
      try StartupBenchmarks(options: options, paths: paths).run(into: &report)
    }
    if options.wantsGroup("large") {
      try LargeMenuBenchmarks(options: options, paths: paths).run(into: &report)
    }
    if options.wantsGroup("durable") {
      try await DurableBenchmarks(options: options).run(into: &report)
    }
    if options.wantsGroup("postgres") {
      try PostgresBenchmarks(options: options).run(into: &report)
    }
    if options.wantsGroup("report") {
      try ReportBenchmarks(options: options).run(into: &report)
    }
    if options.wantsGroup("http") {
      try HTTPBenchmarks(options: options, paths: paths).run(into: &report)
    }
    if options.wantsGroup("rendering") {
      try await RenderingBenchmarks(options: options, paths: paths).run(into: &report)
    }
    Report.note(
      "load \(Self.loadAverage) at the end"
        + (CPUTimes.read().map {
          "; CPU time stolen by the hypervisor: \($0.stealPercent(since: cpuAtStart)) %"
        }
          ?? ""))
    let judged = report.figures.values.filter { options.wants($0.name) && $0.goal != nil }
    let missed = judged.filter { $0.passes == false }.map(\.name).sorted()
    Report.note(
      "\(judged.count - missed.count) of \(judged.count) goals met"
        + (missed.isEmpty ? "" : "; missed: " + missed.joined(separator: ", ")))
  }

  /// The 1, 5 and 15 minute load averages, from `/proc/loadavg`: other work on the
  /// machine shows in the figures.
  static var loadAverage: String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "? ? ?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

/// The machine's CPU time by kind, from the first line of `/proc/stat`: on a virtual
/// machine, time the hypervisor gave to other guests ("steal") slows every figure.
struct CPUTimes {
  let total: Int
  let steal: Int

  /// The counters now, or `nil` where `/proc/stat` is not available.
  static func read() -> CPUTimes? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return nil }
    let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
    // user nice system idle iowait irq softirq steal guest guest_nice: guest time is
    // already counted in user and nice.
    guard fields.count >= 8 else { return nil }
    return CPUTimes(total: fields.prefix(8).reduce(0, +), steal: fields[7])
  }

  /// The share of CPU time stolen since `start`, in whole percent; `?` without a start.
  func stealPercent(since start: CPUTimes?) -> String {
    guard let start, total > start.total else { return "?" }
    return String(Int((Double(steal - start.steal) * 100 / Double(total - start.total)).rounded()))
  }
}
