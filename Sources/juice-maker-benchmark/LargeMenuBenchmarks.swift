import Foundation

/// Every command on the large menu (`LargeMenu`): `--version`, `stock`, `order` and
/// `menu`, each given the menu with `--recipes` and `--localization`, as median wall time of
/// many starts and peak resident memory.
///
/// The store is a file in the menu's temporary directory, made by one untimed `init`; an
/// untimed `validate` checks first that the generated menu is one `juice-maker` accepts.
struct LargeMenuBenchmarks {
  let options: Options
  let paths: Paths

  /// The goal of every command's wall time, in milliseconds.
  static let wallGoal = 50.0
  /// The goal of every command's peak resident memory, in megabytes.
  static let peakGoal = 30.0

  func run(into report: inout Report) throws(BenchmarkError) {
    let runs = ProgramRuns(options: options, paths: paths)
    let program = try paths.program("juice-maker")
    let menu = try LargeMenu.make()
    defer { menu.remove() }
    Report.note(
      "large menu: \(LargeMenu.juiceCount) juices, \(LargeMenu.fruitCount) fruits,"
        + " a catalog of \(menu.catalogBytes / 1024) KiB")
    let data = ["--recipes", menu.recipes.path, "--localization", menu.localization.path]
    let store = ["--store", menu.root.appendingPathComponent("store.sqlite").path]
    let validate = try ChildProcess.run(program, ["validate"] + data, captureOutput: true)
    guard validate.status == 0 else {
      throw .wrongResult("juice-maker validate refuses the large menu: \(validate.output)")
    }
    let created = try ChildProcess.run(program, ["init"] + store + data)
    guard created.status == 0 else {
      throw .wrongResult("juice-maker init on the large menu exited \(created.status)")
    }
    let commands: [(name: String, arguments: [String])] = [
      ("version", ["--version"] + data),
      ("stock", ["stock"] + store + data),
      ("order", ["order", LargeMenu.juiceID(4_321)] + store + data),
      ("menu", ["menu"] + store + data),
    ]
    for (name, arguments) in commands {
      if options.wants("large.\(name)") {
        report.record(
          Figure(
            "large.\(name)", .milliseconds, try runs.wallTimes(program, arguments),
            goal: .atMost(Self.wallGoal)))
      }
      if options.wants("large.\(name)_peak_rss") {
        report.record(
          Figure(
            "large.\(name)_peak_rss", .megabytes, try runs.peaks(program, arguments),
            goal: .atMost(Self.peakGoal)))
      }
    }
  }
}
