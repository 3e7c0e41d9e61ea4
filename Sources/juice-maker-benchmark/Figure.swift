import Foundation

/// One measured figure: the median of its runs, their spread, and the goal it is held to.
///
/// The benchmark prints each figure as one line of `key=value` pairs (logfmt), always in
/// this order, with the median as `value` (`MEDIAN`, `MIN` and `MAX` stand for the
/// measured numbers, which belong to the benchmark's output, not to this comment):
///
/// ```
/// figure=orders.juice_maker.1_thread value=MEDIAN unit=orders/s runs=7 min=MIN max=MAX goal=">=40000000" pass=true
/// figure=orders.actor.1_task value=MEDIAN unit=orders/s runs=7 min=MIN max=MAX goal=none pass=none
/// ```
///
/// - `figure`: a dotted name; the part before the first dot is its group (`--only`).
/// - `value`: the median of the runs (for a ratio, the ratio of two medians).
/// - `unit`: `orders/s`, `requests/s`, `ms`, `MB`, `KiB`, `ns/op`, `us/request` (CPU time),
///   `%`, `streams`, `count` or `x` (a ratio).
/// - `runs`: how many runs the median is taken over (for a ratio, the fewer of its two).
/// - `min`, `max`: the slowest and fastest run (for a ratio, its bounds from the two
///   figures' extremes).
/// - `goal`: `">=N"` or `"<=N"` in `unit`, or `none` for a figure kept for comparison.
/// - `pass`: `true` or `false` against the goal, or `none`.
struct Figure: Sendable {
  let name: String
  let unit: Unit
  let samples: Samples
  let goal: Goal?
  /// Bounds that replace the samples' own, for a ratio.
  var bounds: (min: Double, max: Double)?

  init(_ name: String, _ unit: Unit, _ samples: Samples, goal: Goal? = nil) {
    self.name = name
    self.unit = unit
    self.samples = samples
    self.goal = goal
  }

  var value: Double { samples.median }
  var passes: Bool? { goal.map { $0.isMet(by: value) } }

  /// A ratio of two figures of the same run, with the bounds their extremes allow.
  static func ratio(
    _ name: String, _ numerator: Figure, _ denominator: Figure, goal: Goal? = nil
  ) -> Figure {
    let value = numerator.value / denominator.value
    var figure = Figure(
      name, .ratio,
      Samples([value], runs: min(numerator.samples.runs, denominator.samples.runs)), goal: goal)
    figure.bounds = (
      numerator.samples.min / denominator.samples.max,
      numerator.samples.max / denominator.samples.min
    )
    return figure
  }

  /// The figure as one output line.
  var line: String {
    let (low, high) = bounds ?? (samples.min, samples.max)
    let goalText = goal.map { "\"\($0.comparison.rawValue)\(unit.format($0.threshold))\"" }
    let passText = passes.map { $0 ? "true" : "false" } ?? "none"
    return "figure=\(name) value=\(unit.format(value)) unit=\(unit.rawValue)"
      + " runs=\(samples.runs) min=\(unit.format(low)) max=\(unit.format(high))"
      + " goal=\(goalText ?? "none") pass=\(passText)"
  }
}

// MARK: - Units

extension Figure {
  /// What a figure counts, and how its numbers are written.
  enum Unit: String, Sendable {
    case ordersPerSecond = "orders/s"
    case requestsPerSecond = "requests/s"
    case milliseconds = "ms"
    case megabytes = "MB"
    case kibibytes = "KiB"
    case nanosecondsPerOperation = "ns/op"
    case microsecondsPerRequest = "us/request"
    case percent = "%"
    case streams
    /// A count of events, such as failed orders.
    case count
    case ratio = "x"

    func format(_ number: Double) -> String {
      switch self {
      case .ordersPerSecond, .requestsPerSecond, .streams, .count: String(Int(number.rounded()))
      case .milliseconds, .ratio, .percent: String(format: "%.2f", number)
      case .megabytes, .kibibytes, .nanosecondsPerOperation, .microsecondsPerRequest:
        String(format: "%.1f", number)
      }
    }
  }
}

// MARK: - Goals

extension Figure {
  /// A bound a figure must meet.
  struct Goal: Sendable {
    enum Comparison: String, Sendable {
      case atLeast = ">="
      case atMost = "<="
    }

    let comparison: Comparison
    let threshold: Double

    static func atLeast(_ threshold: Double) -> Goal {
      Goal(comparison: .atLeast, threshold: threshold)
    }

    static func atMost(_ threshold: Double) -> Goal {
      Goal(comparison: .atMost, threshold: threshold)
    }

    func isMet(by value: Double) -> Bool {
      switch comparison {
      case .atLeast: value >= threshold
      case .atMost: value <= threshold
      }
    }
  }
}
