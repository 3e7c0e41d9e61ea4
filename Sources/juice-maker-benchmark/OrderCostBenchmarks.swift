import JuiceMakerKit

/// What one made order and one refused order cost, in nanoseconds, through the
/// public order path `JuiceMaker.make(_: Juice.Handle)` on one thread.
///
/// Made: banana juice from a store with plenty of every fruit. Refused: the same
/// juice from a store with no bananas, so every order is refused, lists its
/// shortage and changes nothing. A refusal's shortage list is built after the
/// store's lock is released, so the two should cost about the same.
struct OrderCostBenchmarks {
  let options: Options
  let menu = Menu()

  func run(into report: inout Report) throws(BenchmarkError) {
    let made = "rush.cost.made"
    let refused = "rush.cost.refused"
    let ratio = "rush.ratio.refused_vs_made"
    if options.wants(made) || options.wants(ratio) {
      report.record(Figure(made, .nanosecondsPerOperation, try measure(bananas: Menu.plentiful)))
    }
    if options.wants(refused) || options.wants(ratio) {
      report.record(Figure(refused, .nanosecondsPerOperation, try measure(bananas: 0)))
    }
    report.recordRatio(ratio, refused, made, goal: .atMost(2))
  }

  /// Nanoseconds per banana juice ordered from a store holding `bananas`.
  private func measure(bananas: Int) throws(BenchmarkError) -> Samples {
    let store: FruitStore
    do {
      store = try FruitStore(
        stock: Dictionary(
          uniqueKeysWithValues: menu.catalog.fruits.map {
            ($0.id, $0.id == "banana" ? bananas : Menu.plentiful)
          }))
    } catch {
      throw .failed("cannot create the store: \(error)")
    }
    let shop = JuiceMaker(name: "bench", catalog: menu.catalog, store: store)
    guard let juice = menu.catalog.handle(of: "banana-juice") else {
      throw .failed("the benchmark menu has no banana-juice")
    }
    let expectMade = bananas > 0
    var wrong = 0
    let samples = Throughput.nanoseconds(
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
}
