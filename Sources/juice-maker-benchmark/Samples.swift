/// The results of repeated runs of one measurement.
struct Samples: Sendable {
  /// One value per run, in the order measured.
  let values: [Double]
  /// How many runs the values stand for.
  let runs: Int

  init(_ values: [Double], runs: Int? = nil) {
    precondition(!values.isEmpty, "a figure needs at least one run")
    self.values = values
    self.runs = runs ?? values.count
  }

  /// The middle value; the mean of the two middle values for an even count.
  var median: Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  var min: Double { values.min() ?? 0 }
  var max: Double { values.max() ?? 0 }

  /// The same runs in another unit.
  func map(_ transform: (Double) -> Double) -> Samples {
    Samples(values.map(transform), runs: runs)
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}
