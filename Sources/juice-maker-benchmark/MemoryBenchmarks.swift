import Foundation

/// Resident memory of a process holding a 10,000-juice catalog, its in-memory store, and a
/// shop that has made every juice once.
///
/// Each run is a fresh child process (the benchmark itself, in its `--child memory` mode,
/// see `ChildMode`), so nothing the benchmark did before counts; the child reports its own
/// `VmRSS` once everything is loaded, and its `VmHWM`, the peak while loading.
struct MemoryBenchmarks {
  let options: Options
  let fixture: CatalogFixture
  let paths: Paths

  func run(into report: inout Report) throws(BenchmarkError) {
    let program = try paths.program("juice-maker-benchmark")
    var resident: [Double] = []
    var peaks: [Double] = []
    for _ in 0..<options.runs {
      let run = try ChildProcess.run(
        program, ["--child", "memory", fixture.onePack.path], captureOutput: true)
      let numbers = run.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
      guard run.status == 0, numbers.count == 2 else {
        throw .wrongResult("the memory child exited \(run.status) saying \(run.output)")
      }
      resident.append(Double(numbers[0]) / 1_048_576)
      peaks.append(Double(numbers[1]) / 1_048_576)
    }
    report.record(
      Figure("memory.10k_catalog_with_store_rss", .megabytes, Samples(resident), goal: .atMost(50)))
    report.record(Figure("memory.10k_catalog_with_store_peak_rss", .megabytes, Samples(peaks)))
  }
}
