import Foundation
import JuiceMakerKit
import TemporaryPostgres

/// `juice-maker serve` over HTTP: a release build with an in-memory store, driven by
/// `wrk` (two threads, keep-alive), against a bare libmicrohttpd program with the
/// server's daemon options (`juice-maker-http-floor`) driven the same way in the same run.
///
/// - Orders: `POST /api/v1/orders` over 64 connections, each `wrk` thread cycling through
///   16 juices of its own (the PostgreSQL figures' menu: `juice-k` is one `fruit-k`, each
///   fruit stocked with a billion, given with `--recipes`), so no order is refused for
///   stock. The floor gets the same requests. The share refused is printed.
/// - `GET /api/v1/stock` over 64 connections, with the built-in menu; the floor gets the
///   same GETs.
/// - Event streams: 2,000 `GET /api/v1/events` streams opened from this process; once all
///   are live, one `POST /api/v1/stock/kiwi {"add":1}`; the figure is the 99th percentile
///   of the delays from sending it to reading its event on each stream (a stream it does
///   not reach within 10 s counts as 10 s). Memory per idle stream is the growth of the
///   server's resident set from before the streams open to after all are live, over
///   2,000. Each run starts a fresh server.
/// - PostgreSQL: orders over 8 connections to `serve` on a store made by `juice-maker
///   init`, against 8 shops in this process on the same PostgreSQL server (the
///   `postgres.orders.8shops` workload), runs interleaved.
///
/// Floor and server runs alternate; each figure is the median of its runs, and each ratio
/// the median of the runs' ratios (a server's run over the floor's run just before it), so
/// other work on the machine weighs on both sides of each. `http.cpu.*` is the CPU time,
/// user and system, each server process spent per answer (from `/proc/PID/stat`): less
/// sensitive to other load than the rates, it shows where a ratio's gap comes from.
struct HTTPBenchmarks {
  let options: Options
  let paths: Paths

  static let streams = 2000
  private static let throughputFigures = [
    "http.floor.post", "http.orders.memory", "http.orders.memory.refused", "http.floor.get",
    "http.stock.memory", "http.ratio.ordersToFloor", "http.ratio.stockToFloor", "http.cpu",
  ]
  private static let eventFigures = [
    "http.events.2000streams.p99", "http.events.2000streams.reached",
    "http.events.idleStreamMemory",
  ]
  private static let postgresFigures = [
    "http.postgres.8shops", "http.orders.postgres.8connections", "http.ratio.postgresTo8shops",
  ]

  /// Runs of each side of the memory figures, and of the event and PostgreSQL figures.
  private var pairs: Int { options.quick ? 1 : 5 }
  private var runs: Int { options.quick ? 1 : 3 }
  private var duration: Duration { options.quick ? .seconds(2) : .seconds(4) }

  func run(into report: inout Report) throws(BenchmarkError) {
    guard let wrk = Wrk() else {
      Report.note("http: skipped, wrk is not installed")
      return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "juice-maker-benchmark-http-\(ProcessInfo.processInfo.processIdentifier)")
    let catalog = try PostgresBenchmarks.menu()
    let pack = directory.appendingPathComponent("recipes").path
    let script = directory.appendingPathComponent("orders.lua").path
    do {
      try FileManager.default.createDirectory(
        atPath: pack, withIntermediateDirectories: true)
      try Self.writePack(catalog, to: pack)
      try Data(Self.ordersScript(juices: catalog.juices.map(\.id.rawValue)).utf8).write(
        to: URL(fileURLWithPath: script))
    } catch {
      throw .failed("cannot write the HTTP benchmark's files in \(directory.path): \(error)")
    }
    defer { try? FileManager.default.removeItem(at: directory) }
    let serve = try paths.program("juice-maker")
    if Self.throughputFigures.contains(where: options.wants) {
      try throughput(
        wrk: wrk, serve: serve, floor: try paths.program("juice-maker-http-floor"), pack: pack,
        script: script, into: &report)
    }
    if Self.eventFigures.contains(where: options.wants) {
      try events(serve: serve, into: &report)
    }
    if Self.postgresFigures.contains(where: options.wants) {
      try postgres(
        wrk: wrk, serve: serve, catalog: catalog, pack: pack, script: script, into: &report)
    }
  }

  // MARK: - Orders and stock in memory, against the floor

  private func throughput(
    wrk: Wrk, serve: String, floor: String, pack: String, script: String,
    into report: inout Report
  ) throws(BenchmarkError) {
    let floorServer = try ServerProcess(floor, [])
    let orderServer = try ServerProcess(
      serve, ["--recipes", pack, "serve", "--memory", "--listen", "127.0.0.1:0"])
    let stockServer = try ServerProcess(serve, ["serve", "--memory", "--listen", "127.0.0.1:0"])
    defer {
      for server in [floorServer, orderServer, stockServer] { server.stop() }
    }
    let ordersURL = orderServer.origin + "api/v1/orders"
    let stockURL = stockServer.origin + "api/v1/stock"
    let floorOrdersURL = floorServer.origin + "api/v1/orders"
    let floorStockURL = floorServer.origin + "api/v1/stock"
    try expect(201, "POST", "/api/v1/orders", on: orderServer, body: #"{"juice":"juice-1"}"#)
    try expect(200, "GET", "/api/v1/stock", on: stockServer)
    try expect(200, "POST", "/api/v1/orders", on: floorServer, body: #"{"juice":"juice-1"}"#)
    Report.note(
      "http: floor \(floorServer.origin), orders \(orderServer.origin), stock"
        + " \(stockServer.origin); \(pairs) runs of \(duration) each, load \(Benchmark.loadAverage)"
    )
    // Warm-up: first connections, first pages of every buffer.
    for (url, scripted) in [
      (floorOrdersURL, true), (ordersURL, true), (floorStockURL, false), (stockURL, false),
    ] {
      _ = try wrk.run(url, connections: 64, for: .seconds(1), script: scripted ? script : nil)
    }
    var floorPost = Series()
    var orders = Series()
    var floorGet = Series()
    var stock = Series()
    var refused: [Double] = []
    for run in 0..<pairs {
      try floorPost.add(drive(wrk, floorServer, "api/v1/orders", connections: 64, script: script))
      let ordered = try drive(wrk, orderServer, "api/v1/orders", connections: 64, script: script)
      try orders.add(ordered, refusedAllowed: true)
      refused.append(Double(ordered.run.refused) * 100 / Double(max(1, ordered.run.responses)))
      try floorGet.add(drive(wrk, floorServer, "api/v1/stock", connections: 64))
      try stock.add(drive(wrk, stockServer, "api/v1/stock", connections: 64))
      Report.note(
        "http run \(run + 1): requests/s (server CPU µs each): floor POST \(floorPost.last),"
          + " orders \(orders.last) with \(ordered.run.refused) refused and"
          + " \(ordered.run.socketErrors) socket errors, floor GET \(floorGet.last), GET /stock"
          + " \(stock.last); load \(Benchmark.loadAverage)")
    }
    report.record(Figure("http.floor.post", .requestsPerSecond, Samples(floorPost.rates)))
    report.record(Figure("http.orders.memory", .ordersPerSecond, Samples(orders.rates)))
    report.record(Figure("http.orders.memory.refused", .percent, Samples(refused)))
    report.record(
      Figure(
        "http.ratio.ordersToFloor", .ratio, Samples(orders.ratios(to: floorPost)),
        goal: .atLeast(0.5)))
    report.record(Figure("http.floor.get", .requestsPerSecond, Samples(floorGet.rates)))
    report.record(Figure("http.stock.memory", .requestsPerSecond, Samples(stock.rates)))
    report.record(
      Figure(
        "http.ratio.stockToFloor", .ratio, Samples(stock.ratios(to: floorGet)),
        goal: .atLeast(0.7)))
    for (name, series) in [
      ("floor.post", floorPost), ("orders.memory", orders), ("floor.get", floorGet),
      ("stock.memory", stock),
    ] {
      report.record(Figure("http.cpu.\(name)", .microsecondsPerRequest, Samples(series.cpu)))
    }
    for (name, server) in [("orders", orderServer), ("stock", stockServer)] {
      let status = server.stop()
      if let status, status != 0 {
        Report.note("http: the \(name) server exited \(status) on SIGTERM, not 0")
      }
    }
  }

  // MARK: - Event streams

  private func events(serve: String, into report: inout Report) throws(BenchmarkError) {
    let timeout = Duration.seconds(10)
    var percentiles: [Double] = []
    var reached: [Int] = []
    var memory: [Double] = []
    for run in 0..<runs {
      let server = try ServerProcess(serve, ["serve", "--memory", "--listen", "127.0.0.1:0"])
      defer { server.stop() }
      let change = RawHTTP.request(
        "POST", "/api/v1/stock/kiwi", host: server.host, port: server.port,
        body: #"{"add":1}"#)
      // Warm-up: whatever the first stream and the first change set up once.
      do {
        let warm = try EventFanout(streams: 8, host: server.host, port: server.port)
        try warm.waitUntilLive(timeout: timeout)
        _ = try warm.deliveries(of: change, timeout: timeout)
        warm.close()
      }
      usleep(200_000)
      guard let before = server.residentBytes else {
        throw .failed("cannot read the resident set of process \(server.pid)")
      }
      let fanout = try EventFanout(streams: Self.streams, host: server.host, port: server.port)
      defer { fanout.close() }
      try fanout.waitUntilLive(timeout: .seconds(60))
      usleep(300_000)
      guard let after = server.residentBytes else {
        throw .failed("cannot read the resident set of process \(server.pid)")
      }
      memory.append(Double(after - before) / Double(Self.streams) / 1024)
      let (delays, status) = try fanout.deliveries(of: change, timeout: timeout)
      guard status == 200 else {
        throw .wrongResult("POST /api/v1/stock/kiwi {\"add\":1} answered \(status), not 200")
      }
      let milliseconds = delays.map { ($0 ?? timeout).seconds * 1000 }.sorted()
      let p99 = milliseconds[Int((Double(milliseconds.count) * 0.99).rounded(.up)) - 1]
      percentiles.append(p99)
      reached.append(delays.count { $0 != nil })
      Report.note(
        "http events run \(run + 1): \(reached[run]) of \(Self.streams) reached, p50"
          + " \(String(format: "%.1f", milliseconds[milliseconds.count / 2])) ms, p99"
          + " \(String(format: "%.1f", p99)) ms, max"
          + " \(String(format: "%.1f", milliseconds.last ?? 0)) ms; RSS"
          + " \(before / 1024) → \(after / 1024) KiB; load \(Benchmark.loadAverage)")
    }
    report.record(
      Figure(
        "http.events.2000streams.p99", .milliseconds, Samples(percentiles), goal: .atMost(250)))
    // The fewest streams any run's change reached: every run must reach all.
    report.record(
      Figure(
        "http.events.2000streams.reached", .streams,
        Samples([Double(reached.min() ?? 0)], runs: reached.count),
        goal: .atLeast(Double(Self.streams))))
    report.record(
      Figure("http.events.idleStreamMemory", .kibibytes, Samples(memory), goal: .atMost(32)))
  }

  // MARK: - Orders on PostgreSQL

  private func postgres(
    wrk: Wrk, serve: String, catalog: Catalog, pack: String, script: String,
    into report: inout Report
  ) throws(BenchmarkError) {
    guard TemporaryServer.isInstalled else {
      Report.note("http: PostgreSQL figures skipped, PostgreSQL is not installed")
      return
    }
    let database: TemporaryServer
    do {
      database = try TemporaryServer.start()
    } catch {
      throw .failed("cannot start PostgreSQL: \(error)")
    }
    defer { database.stop() }
    let shopsURI = database.socketURI(
      database: try PostgresBenchmarks.prepareDatabase(on: database, catalog: catalog))
    let serveURI: String
    do {
      serveURI = database.socketURI(database: try database.createDatabase())
    } catch {
      throw .failed("cannot create a database: \(error)")
    }
    let initialized = try ChildProcess.run(
      serve, ["--recipes", pack, "init", "--store", serveURI], captureOutput: true)
    guard initialized.status == 0 else {
      throw .failed("juice-maker init --store \(serveURI) exited \(initialized.status)")
    }
    let server = try ServerProcess(
      serve, ["--recipes", pack, "--store", serveURI, "serve", "--listen", "127.0.0.1:0"])
    defer { server.stop() }
    try expect(201, "POST", "/api/v1/orders", on: server, body: #"{"juice":"juice-1"}"#)
    let url = server.origin + "api/v1/orders"
    let duration: Duration = options.quick ? .seconds(2) : .seconds(4)
    let shops = PostgresBenchmarks(options: options)
    _ = try wrk.run(url, connections: 8, for: .seconds(1), script: script)
    var inProcess: [Double] = []
    var overHTTP: [Double] = []
    for run in 0..<runs {
      inProcess.append(
        try shops.shopsRun(uri: shopsURI, catalog: catalog, shops: 8, hot: false, for: duration))
      let ordered = try checked(wrk.run(url, connections: 8, for: duration, script: script))
      overHTTP.append(ordered.rate)
      Report.note(
        "http postgres run \(run + 1): 8 shops \(Int(inProcess[run])), 8 connections"
          + " \(Int(overHTTP[run])); load \(Benchmark.loadAverage)")
    }
    report.record(Figure("http.postgres.8shops", .ordersPerSecond, Samples(inProcess)))
    report.record(Figure("http.orders.postgres.8connections", .ordersPerSecond, Samples(overHTTP)))
    report.record(
      Figure(
        "http.ratio.postgresTo8shops", .ratio,
        Samples(zip(overHTTP, inProcess).map { $0 / $1 }), goal: .atLeast(0.8)))
  }

  // MARK: - Helpers

  /// The runs of one side of a comparison: its rates and the server's CPU time per answer.
  private struct Series {
    var rates: [Double] = []
    var cpu: [Double] = []

    /// Adds a run, which must have had no refusal unless `refusedAllowed`; the rate
    /// counts successes only.
    mutating func add(_ driven: (run: Wrk.Run, cpu: Double), refusedAllowed: Bool = false)
      throws(BenchmarkError)
    {
      let run = driven.run
      guard refusedAllowed || run.refused == 0 else {
        throw .wrongResult("\(run.refused) of \(run.responses) answers were not 2xx")
      }
      rates.append(run.rate * Double(run.responses - run.refused) / Double(max(1, run.responses)))
      cpu.append(driven.cpu)
    }

    /// The last run, as a note shows it.
    var last: String {
      "\(Int(rates.last ?? 0)) (\(String(format: "%.1f", cpu.last ?? 0)))"
    }

    /// Each run's rate over the run of `other` just before it: load that changes between
    /// runs weighs on both sides of each ratio.
    func ratios(to other: Series) -> [Double] {
      zip(rates, other.rates).map { $0 / $1 }
    }
  }

  /// Drives `server` at `path` (after its origin) for one run, and measures its CPU time
  /// (user and system) per answer over the run.
  private func drive(
    _ wrk: Wrk, _ server: ServerProcess, _ path: String, connections: Int,
    script: String? = nil
  ) throws(BenchmarkError) -> (run: Wrk.Run, cpu: Double) {
    let before = server.cpuTime
    let run = try wrk.run(
      server.origin + path, connections: connections, for: duration, script: script)
    guard let before, let after = server.cpuTime else {
      throw .failed("cannot read the CPU time of process \(server.pid)")
    }
    return (run, (after - before).seconds * 1e6 / Double(max(1, run.responses)))
  }

  /// Checks one answer before timing: a run of refusals would time nothing useful.
  private func expect(
    _ status: Int, _ method: String, _ path: String, on server: ServerProcess,
    body: String? = nil
  ) throws(BenchmarkError) {
    let answer = try RawHTTP.exchange(
      method, path, host: server.host, port: server.port, body: body)
    guard answer.status == status else {
      throw .wrongResult(
        "\(method) \(server.origin)\(path.dropFirst()) answered \(answer.status), not \(status):"
          + " \(answer.body.prefix(300))")
    }
  }

  /// A run whose every answer was a success.
  private func checked(_ run: Wrk.Run) throws(BenchmarkError) -> Wrk.Run {
    guard run.refused == 0 else {
      throw .wrongResult("\(run.refused) of \(run.responses) answers were not 2xx")
    }
    return run
  }

  /// Writes `catalog` as the recipe packs `fruits.json` and `juices.json` in `directory`.
  private static func writePack(_ catalog: Catalog, to directory: String) throws {
    let fruits = catalog.fruits.map {
      #"{"id":"\#($0.id.rawValue)","stock":\#($0.initialStock)}"#
    }
    let juices = catalog.juices.map { juice in
      let ingredients = juice.ingredients.map {
        #"{"fruit":"\#($0.fruit.rawValue)","count":\#($0.count)}"#
      }
      return
        #"{"id":"\#(juice.id.rawValue)","ingredients":[\#(ingredients.joined(separator: ","))]}"#
    }
    try Data(#"{"fruits":[\#(fruits.joined(separator: ","))]}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/fruits.json"))
    try Data(#"{"juices":[\#(juices.joined(separator: ","))]}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/juices.json"))
  }

  /// The `wrk` script of the order figures: each of `wrk`'s two threads cycles through its
  /// own half of `juices`, its requests formatted once.
  private static func ordersScript(juices: [String]) -> String {
    let list = juices.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
      -- Each thread orders its own half of the juices in turn, so concurrent orders touch
      -- different fruits, as the PostgreSQL figures' shops do.
      local juices = { \(list) }
      local threads = 0
      function setup(thread)
        thread:set("first", threads)
        threads = threads + 1
      end
      function init(args)
        local half = math.floor(#juices / 2)
        requests = {}
        for k = 1, half do
          local juice = juices[first * half + k]
          requests[k] = wrk.format("POST", nil, { ["Content-Type"] = "application/json" },
            '{"juice":"' .. juice .. '"}')
        end
        counter = 0
      end
      function request()
        counter = counter % #requests + 1
        return requests[counter]
      end

      """
  }
}
