import Foundation

/// Every command on the large menu (`LargeMenu`): `--version`, `stock`, `order` and
/// `menu`, each given the menu with `--recipes` and `--localization`, as median wall time of
/// many starts and peak resident memory.
///
/// The store is a file in the menu's temporary directory, made by one untimed `init`; an
/// untimed `validate` checks first that the generated menu is one `juice-maker` accepts.
///
/// Each command is timed with a warm cache of compiled packs and catalogs (the untimed
/// starts before the timed ones fill it), and again as `large.<command>_cold`, its cache
/// directory emptied before each start, against a goal of twice the warm figure. The two
/// are started in turn, a warm start then a cold one, so that their ratio is taken under
/// one load. The cache is a directory of the menu's, given to every start as
/// `XDG_CACHE_HOME`.
///
/// `large.reload` is how long a running `serve` takes to take up the menu once its juices'
/// pack changed, as `serve` says on its line `Menu changed: …, taken up in N ms.`: the
/// watcher's look at the files, loading the packs again, and the answers of the new menu.
/// `large.reload_catalog` is the same once its catalog changed, which loads every catalog
/// again too.
struct LargeMenuBenchmarks {
  let options: Options
  let paths: Paths

  /// The goal of every command's wall time, in milliseconds.
  static let wallGoal = 50.0
  /// The goal of every command's peak resident memory, in megabytes.
  static let peakGoal = 30.0
  /// The goal of a running server's reload, in milliseconds.
  static let reloadGoal = 100.0
  /// The goal of a start with an empty cache, as a multiple of a start with a full one.
  static let coldGoal = 2.0

  func run(into report: inout Report) throws(BenchmarkError) {
    let runs = ProgramRuns(options: options, paths: paths)
    let program = try paths.program("juice-maker")
    let menu = try LargeMenu.make()
    defer { menu.remove() }
    let cache = menu.root.appendingPathComponent("cache", isDirectory: true).path
    let previousCache = getenv("XDG_CACHE_HOME").map { String(cString: $0) }
    setenv("XDG_CACHE_HOME", cache, 1)
    defer {
      if let previousCache {
        setenv("XDG_CACHE_HOME", previousCache, 1)
      } else {
        unsetenv("XDG_CACHE_HOME")
      }
    }
    let emptyCache: () -> Void = { _ = try? FileManager.default.removeItem(atPath: cache) }
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
    for (name, file) in [
      ("large.reload", menu.recipes.appendingPathComponent("juices.json")),
      ("large.reload_catalog", menu.localization.appendingPathComponent("Large.xcstrings")),
    ] where options.wants(name) {
      report.record(
        Figure(
          name, .milliseconds, try reloads(program, store + data, changing: file),
          goal: .atMost(Self.reloadGoal)))
    }
    for (name, arguments) in commands {
      let warm = "large.\(name)"
      let cold = "large.\(name)_cold"
      // A start with a full cache and one with an empty cache are taken in turn, so their
      // ratio compares starts under the same load.
      var ways: [(figure: String, before: () -> Void, goal: Figure.Goal?)] = []
      if options.wants(warm) { ways.append((warm, {}, .atMost(Self.wallGoal))) }
      if options.wants(cold) { ways.append((cold, emptyCache, nil)) }
      if !ways.isEmpty {
        let walls = try runs.alternatingWallTimes(program, arguments, ways: ways.map(\.before))
        for (way, samples) in zip(ways, walls) {
          report.record(Figure(way.figure, .milliseconds, samples, goal: way.goal))
        }
      }
      if options.wants(cold) {
        report.recordRatio(
          "large.ratio.\(name)_cold_vs_warm", cold, warm, goal: .atMost(Self.coldGoal))
      }
      if options.wants("large.\(name)_peak_rss") {
        report.record(
          Figure(
            "large.\(name)_peak_rss", .megabytes, try runs.peaks(program, arguments),
            goal: .atMost(Self.peakGoal)))
      }
      if options.wants(cold + "_peak_rss") {
        report.record(
          Figure(
            cold + "_peak_rss", .megabytes,
            try runs.peaks(program, arguments, before: emptyCache)))
        report.recordRatio(
          "large.ratio.\(name)_cold_vs_warm_peak_rss", cold + "_peak_rss",
          "large.\(name)_peak_rss", goal: .atMost(Self.coldGoal))
      }
    }
  }

  /// Rewrites one of the menu's files under a running `serve` and reads how long each
  /// reload took.
  private func reloads(_ program: String, _ arguments: [String], changing file: URL)
    throws(BenchmarkError) -> Samples
  {
    let server = try ServerProcess(program, arguments + ["serve", "--listen", "127.0.0.1:0"])
    defer { _ = server.stop() }
    let text: String
    do {
      text = try String(contentsOf: file, encoding: .utf8)
    } catch {
      throw .failed("cannot read \(file.path): \(error)")
    }
    var times: [Double] = []
    for round in 0..<(options.quick ? 3 : 10) {
      // The same menu written again, a line longer or shorter: a changed file.
      do {
        try Data((text + (round % 2 == 0 ? "\n" : "")).utf8).write(to: file, options: .atomic)
      } catch {
        throw .failed("cannot write \(file.path): \(error)")
      }
      let deadline = ContinuousClock.now + .seconds(30)
      while true {
        let taken = server.output.matches(of: /taken up in ([0-9]+) ms/)
        if taken.count > round, let milliseconds = Double(taken[round].1) {
          times.append(milliseconds)
          break
        }
        guard ContinuousClock.now < deadline else {
          throw .wrongResult("serve did not take up the changed menu within 30 s")
        }
        usleep(10_000)
      }
    }
    return Samples(times)
  }
}
