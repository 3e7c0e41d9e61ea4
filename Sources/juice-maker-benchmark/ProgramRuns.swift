import Foundation

/// Starts a program of the build many times, for the median of its wall time or of its
/// peak resident memory.
struct ProgramRuns {
  let options: Options
  let paths: Paths

  /// Starts a program `options.starts` times after two untimed starts.
  ///
  /// - Parameters:
  ///   - program: The program's path.
  ///   - arguments: Its arguments.
  ///   - before: Run before each start, untimed, such as emptying a cache.
  /// - Returns: Milliseconds of wall time of each timed start.
  /// - Throws: `BenchmarkError.wrongResult` when a start does not exit 0.
  func wallTimes(_ program: String, _ arguments: [String], before: @escaping () -> Void = {})
    throws(BenchmarkError) -> Samples
  {
    try alternatingWallTimes(program, arguments, ways: [before])[0]
  }

  /// Starts a program `options.starts` times in each of several ways, taking the ways in
  /// turn, after two untimed starts of each: figures compared with one another are then
  /// taken under the same load, however the machine's load drifts.
  ///
  /// - Parameters:
  ///   - program: The program's path.
  ///   - arguments: Its arguments.
  ///   - ways: Run before each start of each way, untimed, such as emptying a cache.
  /// - Returns: Milliseconds of wall time of each timed start, one set for each way.
  /// - Throws: `BenchmarkError.wrongResult` when a start does not exit 0.
  func alternatingWallTimes(
    _ program: String, _ arguments: [String], ways: [() -> Void]
  ) throws(BenchmarkError) -> [Samples] {
    var walls = Array(repeating: [Double](), count: ways.count)
    for index in 0..<(options.starts + 2) {
      for (way, before) in ways.enumerated() {
        before()
        let run = try ChildProcess.run(program, arguments)
        guard run.status == 0 else {
          throw .wrongResult("\(program) \(arguments.joined(separator: " ")) exited \(run.status)")
        }
        if index >= 2 { walls[way].append(run.wall.seconds * 1000) }
      }
    }
    return walls.map { Samples($0) }
  }

  /// Starts a program `options.runs` times through the benchmark's `--child launch` mode,
  /// whose small fork is all that can overstate the program's peak (see `ChildMode`).
  ///
  /// - Parameters:
  ///   - program: The program's path.
  ///   - arguments: Its arguments.
  ///   - before: Run before each start, such as emptying a cache.
  /// - Returns: Megabytes of peak resident memory of each start.
  /// - Throws: `BenchmarkError.wrongResult` when a start does not exit 0.
  func peaks(_ program: String, _ arguments: [String], before: () -> Void = {})
    throws(BenchmarkError) -> Samples
  {
    let launcher = try paths.program("juice-maker-benchmark")
    var peaks: [Double] = []
    var floor = 0
    for _ in 0..<options.runs {
      before()
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
}
