/// Measures a rate: calibrates how much work one run takes, then times several runs.
///
/// Every run gets a deadline of four times the intended duration; work that can collapse
/// (a lock under contention) checks it now and then and stops early, so a collapse shows
/// as a low rate instead of a benchmark that runs for hours.
enum Throughput {
  /// The work one run did, and how long it took.
  struct Timed {
    let operations: Int
    let elapsed: Duration
  }

  /// Operations per second over `runs` runs of about `duration` each.
  ///
  /// - Parameters:
  ///   - runs: How many timed runs.
  ///   - duration: About how long each run should take.
  ///   - run: Does about the given number of units of work, stopping early once past the
  ///     deadline, and returns how many operations it did and its wall time.
  /// - Returns: Operations per second of each run.
  @MainActor
  static func measure<Failure: Error>(
    runs: Int, duration: Duration,
    _ run: (_ units: Int, _ deadline: ContinuousClock.Instant) async throws(Failure) -> Timed
  ) async throws(Failure) -> Samples {
    func timed(_ units: Int) async throws(Failure) -> Timed {
      try await run(units, .now + duration * 4)
    }
    var units = 1
    var result = try await timed(units)
    let floor = duration / 8
    while result.elapsed < floor {
      units *= result.elapsed < floor / 8 ? 8 : 2
      result = try await timed(units)
    }
    let scale = duration.seconds / result.elapsed.seconds
    units = max(1, Int((Double(units) * scale).rounded()))
    var rates: [Double] = []
    for _ in 0..<runs {
      let result = try await timed(units)
      rates.append(Double(result.operations) / result.elapsed.seconds)
    }
    return Samples(rates)
  }

  /// Nanoseconds per operation of `units × unit` operations, the reciprocal of `measure`.
  @MainActor
  static func nanoseconds(
    runs: Int, duration: Duration, unit: Int, _ run: (_ operations: Int) -> Duration
  ) async -> Samples {
    await measure(runs: runs, duration: duration) { units, _ in
      Timed(operations: units * unit, elapsed: run(units * unit))
    }.map { 1e9 / $0 }
  }
}
