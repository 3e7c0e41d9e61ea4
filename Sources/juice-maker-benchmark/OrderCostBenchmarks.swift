import JuiceMakerKit

/// What one made order and one refused order cost, in nanoseconds, on one thread.
///
/// `rush.cost.*` run the rush's loop (`Rush`, one shop, the benchmark menu's weighted
/// picks) with no restocks: made, from a store with plenty of every fruit; refused, from
/// a store with none, so every order is refused and counts its short fruits. The
/// `rush.cost.make_handle_*` lines do the same through the public
/// `JuiceMaker.make(_: Juice.Handle)` with banana juice, where a refusal also builds the
/// error's shortage list (after the store's lock is released).
struct OrderCostBenchmarks {
  let options: Options
  let menu = Menu()

  @MainActor
  func run(into report: inout Report) async throws(BenchmarkError) {
    let made = "rush.cost.made"
    let refused = "rush.cost.refused"
    let ratio = "rush.ratio.refused_vs_made"
    if options.wants(made) || options.wants(ratio) {
      report.record(Figure(made, .nanosecondsPerOperation, try await rush(stock: Menu.plentiful)))
    }
    if options.wants(refused) || options.wants(ratio) {
      report.record(Figure(refused, .nanosecondsPerOperation, try await rush(stock: 0)))
    }
    report.recordRatio(ratio, refused, made, goal: .atMost(2))
    for (name, bananas) in [
      ("rush.cost.make_handle_made", Menu.plentiful), ("rush.cost.make_handle_refused", 0),
    ] where options.wants(name) {
      report.record(Figure(name, .nanosecondsPerOperation, try await make(bananas: bananas)))
    }
  }

  /// Nanoseconds per order of a one-shop rush with no restocks over a store holding
  /// `stock` of every fruit.
  private func rush(stock: Int) async throws(BenchmarkError) -> Samples {
    let orders = options.quick ? 200_000 : 2_000_000
    var values: [Double] = []
    for _ in 0..<options.runs {
      let rush = Rush(
        catalog: menu.catalog, store: try store(stock: { _ in stock }), shops: 1, orders: orders,
        seed: 7, restockEvery: 0)
      let report: Rush.Report
      do {
        report = try await rush.run(.sequential)
      } catch {
        throw .failed("the rush could not read the store: \(error)")
      }
      let expected = stock > 0 ? (made: orders, refused: 0) : (made: 0, refused: orders)
      guard report.made == expected.made, report.refused == expected.refused else {
        throw .wrongResult(
          "a rush over \(stock) of each fruit made \(report.made) and refused \(report.refused)")
      }
      values.append(report.seconds * 1e9 / Double(orders))
    }
    return Samples(values)
  }

  /// Nanoseconds per banana juice made with its handle from a store holding `bananas`.
  @MainActor
  private func make(bananas: Int) async throws(BenchmarkError) -> Samples {
    let store = try store { $0 == "banana" ? bananas : Menu.plentiful }
    let shop = JuiceMaker(name: "bench", catalog: menu.catalog, store: store)
    guard let juice = menu.catalog.handle(of: "banana-juice") else {
      throw .failed("the benchmark menu has no banana-juice")
    }
    let expectMade = bananas > 0
    var wrong = 0
    let samples = await Throughput.nanoseconds(
      runs: options.runs, duration: options.runDuration, unit: 1_000
    ) { operations in
      let start = ContinuousClock.now
      for _ in 0..<operations {
        do {
          try shop.make(juice)
          if !expectMade { wrong &+= 1 }
        } catch {
          if expectMade { wrong &+= 1 }
        }
      }
      return ContinuousClock.now - start
    }
    guard wrong == 0 else {
      throw .wrongResult(
        "\(wrong) banana juices were \(expectMade ? "refused" : "made") from \(bananas) bananas")
    }
    return samples
  }

  /// An in-memory store of the benchmark menu's fruits.
  private func store(stock: (Fruit.ID) -> Int) throws(BenchmarkError) -> FruitStore {
    do {
      return try FruitStore(
        stock: Dictionary(uniqueKeysWithValues: menu.catalog.fruits.map { ($0.id, stock($0.id)) }))
    } catch {
      throw .failed("cannot create the store: \(error)")
    }
  }
}
