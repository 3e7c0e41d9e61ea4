import Foundation

/// `juice-maker stock` end to end, against a bare Foundation program that reads the same
/// two JSON files: median wall time of many starts, and peak resident memory.
///
/// Both programs come from the same build directory as the benchmark and run with the
/// package root as their working directory, so `stock` reads the default `Recipes/` and
/// `Localization/`. `stock` uses a store file in a temporary directory, created by one
/// untimed run; each program is started twice untimed before the timed starts. Peak memory
/// is measured through a fresh launcher process (see `ChildMode`).
struct StartupBenchmarks {
  let options: Options
  let paths: Paths

  func run(into report: inout Report) throws(BenchmarkError) {
    let stock = try paths.program("juice-maker")
    let baseline = try paths.program("juice-maker-baseline")
    Report.note("juice-maker: \(Self.linkage(of: stock)); baseline: \(Self.linkage(of: baseline))")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-store-\(ProcessInfo.processInfo.processIdentifier)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw .failed("cannot create \(directory.path): \(error)")
    }
    defer { try? FileManager.default.removeItem(at: directory) }
    let previous = FileManager.default.currentDirectoryPath
    guard FileManager.default.changeCurrentDirectoryPath(paths.root.path) else {
      throw .failed("cannot change to \(paths.root.path)")
    }
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }

    let store = directory.appendingPathComponent("store.sqlite").path
    let stockArguments = ["stock", "--store", store]
    // One untimed run creates the store file.
    _ = try ChildProcess.run(stock, stockArguments)
    let wall = [
      "startup.stock", "startup.foundation_baseline", "startup.ratio.stock_vs_foundation",
    ]
    if wall.contains(where: options.wants) {
      report.record(
        Figure(
          "startup.stock", .milliseconds, try wallTimes(stock, stockArguments),
          goal: .atMost(15)))
      report.record(
        Figure("startup.foundation_baseline", .milliseconds, try wallTimes(baseline, [])))
      report.recordRatio(
        "startup.ratio.stock_vs_foundation", "startup.stock", "startup.foundation_baseline",
        goal: .atMost(1.5))
    }
    if options.wants("startup.stock_peak_rss") {
      report.record(
        Figure(
          "startup.stock_peak_rss", .megabytes, try peaks(stock, stockArguments),
          goal: .atMost(25)))
    }
    if options.wants("startup.foundation_baseline_peak_rss") {
      report.record(
        Figure("startup.foundation_baseline_peak_rss", .megabytes, try peaks(baseline, [])))
    }
    if options.wants("startup.phase") {
      try phases(store: store, into: &report)
    }
  }

  /// Times the phases of `stock` cold, each in a fresh process (see `ChildMode`), to show
  /// where its time beyond the baseline goes. The process is this benchmark, linked as it
  /// is, not `juice-maker`.
  private func phases(store: String, into report: inout Report) throws(BenchmarkError) {
    let program = try paths.program("juice-maker-benchmark")
    var times: [[Double]] = [[], [], []]
    for _ in 0..<options.runs {
      let run = try ChildProcess.run(
        program, ["--child", "phases", paths.root.path, store], captureOutput: true)
      let numbers = run.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
      guard run.status == 0, numbers.count == times.count else {
        throw .wrongResult("the phases child exited \(run.status) saying \(run.output)")
      }
      for index in times.indices { times[index].append(numbers[index]) }
    }
    for (name, samples) in zip(["strings", "catalog", "store"], times) {
      report.record(Figure("startup.phase.\(name)", .milliseconds, Samples(samples)))
    }
  }

  /// Starts a program `options.starts` times after two untimed starts.
  ///
  /// - Returns: Milliseconds of wall time of each timed start.
  private func wallTimes(_ program: String, _ arguments: [String]) throws(BenchmarkError)
    -> Samples
  {
    var walls: [Double] = []
    for index in 0..<(options.starts + 2) {
      let run = try ChildProcess.run(program, arguments)
      guard run.status == 0 else {
        throw .wrongResult("\(program) \(arguments.joined(separator: " ")) exited \(run.status)")
      }
      if index >= 2 { walls.append(run.wall.seconds * 1000) }
    }
    return Samples(walls)
  }

  /// Starts a program `options.runs` times through the benchmark's `--child launch` mode,
  /// whose small fork is all that can overstate the program's peak (see `ChildMode`).
  ///
  /// - Returns: Megabytes of peak resident memory of each start.
  private func peaks(_ program: String, _ arguments: [String]) throws(BenchmarkError) -> Samples {
    let launcher = try paths.program("juice-maker-benchmark")
    var peaks: [Double] = []
    var floor = 0
    for _ in 0..<options.runs {
      let run = try ChildProcess.run(
        launcher, ["--child", "launch", program] + arguments, captureOutput: true)
      let numbers = run.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
      guard run.status == 0, numbers.count == 3, numbers[1] == 0 else {
        throw .wrongResult("launching \(program) failed: \(run.status) \(run.output)")
      }
      peaks.append(Double(numbers[0]) / 1_048_576)
      floor = max(floor, numbers[2])
    }
    let measured = Samples(peaks)
    if measured.min * 1_048_576 <= Double(floor) {
      Report.note(
        "\(program): peak \(measured.min) MB is not above the launcher's floor of"
          + " \(floor / 1024) KB, so it may be overstated")
    }
    return measured
  }

  /// The program's size, and whether it loads the Swift runtime as a shared library (its
  /// dynamic section, near the start of the file, names `libswiftCore.so`).
  private static func linkage(of program: String) -> String {
    let size = (try? FileManager.default.attributesOfItem(atPath: program)[.size] as? Int) ?? 0
    var dynamic = false
    if let file = FileHandle(forReadingAtPath: program) {
      let head = (try? file.read(upToCount: 4 << 20)) ?? Data()
      dynamic = head.range(of: Data("libswiftCore.so".utf8)) != nil
      try? file.close()
    }
    return "\(size >> 20) MB, Swift runtime linked \(dynamic ? "dynamically" : "statically")"
  }
}
