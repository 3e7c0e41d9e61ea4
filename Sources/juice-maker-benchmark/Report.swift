import Foundation

/// The figures of one benchmark run: printed as they are measured, kept for the ratios.
struct Report {
  let options: Options
  private(set) var figures: [String: Figure] = [:]

  init(options: Options) {
    self.options = options
  }

  /// Keeps a figure, and prints it when it was asked for.
  mutating func record(_ figure: Figure) {
    figures[figure.name] = figure
    guard options.wants(figure.name) else { return }
    FileHandle.standardOutput.write(Data((figure.line + "\n").utf8))
  }

  /// Records the ratio of two recorded figures, when both were measured.
  mutating func recordRatio(
    _ name: String, _ numerator: String, _ denominator: String, goal: Figure.Goal? = nil
  ) {
    guard let top = figures[numerator], let bottom = figures[denominator] else { return }
    record(Figure.ratio(name, top, bottom, goal: goal))
  }

  /// Writes a progress note to standard error.
  static func note(_ text: String) {
    FileHandle.standardError.write(Data(("# " + text + "\n").utf8))
  }
}
