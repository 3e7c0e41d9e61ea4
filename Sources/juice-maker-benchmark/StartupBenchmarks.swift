import Foundation

/// `juice-maker stock` and `juice-maker --version` end to end, against a bare Foundation
/// program that reads the same two JSON files as `stock`: median wall time of many starts,
/// and peak resident memory.
///
/// Both programs come from the same build directory as the benchmark and run with the
/// package root as their working directory, so `stock` reads the default `Recipes/` and
/// `Localization/`. `stock` uses a store file in a temporary directory, made by one
/// untimed `init`; each program is started twice untimed before the timed starts. Peak memory
/// is measured through a fresh launcher process (see `ChildMode`).
struct StartupBenchmarks {
  let options: Options
  let paths: Paths

  func run(into report: inout Report) throws(BenchmarkError) {
    let runs = ProgramRuns(options: options, paths: paths)
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
    // A named store is made by `init` alone; `stock` refuses a missing one.
    let created = try ChildProcess.run(stock, ["init", "--store", store])
    guard created.status == 0 else {
      throw .wrongResult("juice-maker init --store \(store) exited \(created.status)")
    }
    let wantsStock = [
      "startup.stock", "startup.foundation_baseline", "startup.ratio.stock_vs_foundation",
    ].contains(where: options.wants)
    let wantsVersion = [
      "startup.version", "startup.foundation_baseline", "startup.ratio.version_vs_foundation",
    ].contains(where: options.wants)
    if wantsStock {
      report.record(
        Figure(
          "startup.stock", .milliseconds, try runs.wallTimes(stock, stockArguments),
          goal: .atMost(15)))
    }
    if wantsVersion {
      report.record(
        Figure("startup.version", .milliseconds, try runs.wallTimes(stock, ["--version"])))
    }
    if wantsStock || wantsVersion {
      report.record(
        Figure("startup.foundation_baseline", .milliseconds, try runs.wallTimes(baseline, [])))
      report.recordRatio(
        "startup.ratio.stock_vs_foundation", "startup.stock", "startup.foundation_baseline",
        goal: .atMost(1.5))
      report.recordRatio(
        "startup.ratio.version_vs_foundation", "startup.version", "startup.foundation_baseline",
        goal: .atMost(1.2))
    }
    if options.wants("startup.stock_peak_rss") {
      report.record(
        Figure(
          "startup.stock_peak_rss", .megabytes, try runs.peaks(stock, stockArguments),
          goal: .atMost(25)))
    }
    if options.wants("startup.foundation_baseline_peak_rss") {
      report.record(
        Figure(
          "startup.foundation_baseline_peak_rss", .megabytes, try runs.peaks(baseline, [])))
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
