import Foundation
import JuiceMakerKit
import Synchronization
import Testing

/// The checks of the conformance suite, each run against a fresh store of `kind`.
struct ConformanceChecks {
  let kind: StockStorageConformance

  static let fruits = [
    Fruit(id: "strawberry", initialStock: 100), Fruit(id: "banana", initialStock: 100),
    Fruit(id: "kiwi", initialStock: 100),
  ]

  static let catalog: Catalog = {
    do {
      return try Catalog(
        fruits: fruits,
        juices: [
          Juice(
            id: "strawberry-banana-juice",
            ingredients: [
              Ingredient(fruit: "strawberry", count: 10), Ingredient(fruit: "banana", count: 1),
            ]),
          Juice(id: "kiwi-juice", ingredients: [Ingredient(fruit: "kiwi", count: 3)]),
        ])
    } catch {
      fatalError("the conformance catalog must be valid: \(error)")
    }
  }()

  func add(_ fruit: Fruit.ID, _ count: Int, by editor: String = "clerk") -> StockOperation {
    StockOperation(editor: editor, action: .add(fruit, count: count))
  }

  // MARK: - Prices and limits

  func pricesAndLimitsAreJournaled() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let price = Money(minorUnits: 450, currency: try Currency(code: "USD"))
    let order = StockOperation(
      editor: "east", action: .order("kiwi-juice", count: 2), price: price)
    let receipt = try storage.perform(order, touching: [2]) { levels in
      levels[2] -= 6
      return .done
    }
    #expect(try storage.entry(for: order.id)?.operation.price == price)
    #expect(receipt.entry.operation.price == price)
    #expect(try storage.limits().isEmpty)
    let shop = FruitStore(storage: storage)
    try shop.setLimits(StockLimits(minimum: 5, par: 50), of: "kiwi", by: "east")
    try shop.setLimits(StockLimits(minimum: 1, par: 9), of: "banana", by: "west")
    try shop.setLimits(StockLimits(minimum: 8, par: 80), of: "kiwi", by: "west")
    let expected: [Fruit.ID: StockLimits] = [
      "kiwi": StockLimits(minimum: 8, par: 80), "banana": StockLimits(minimum: 1, par: 9),
    ]
    #expect(try storage.limits() == expected)
    #expect(try store.open().limits() == expected)
    // Limits change no level.
    #expect(try storage.levels() == [100, 100, 94])
    #expect(
      try shop.limits(over: Self.catalog) == [
        nil, StockLimits(minimum: 1, par: 9), StockLimits(minimum: 8, par: 80),
      ])
  }

  // MARK: - Reports

  func reportTotalsEqualSumsOverTheJournal() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let prices: [Juice.ID: Money] = [
      "strawberry-banana-juice": Money(minorUnits: 6000, currency: try Currency(code: "KRW")),
      "kiwi-juice": Money(minorUnits: 4500, currency: try Currency(code: "KRW")),
    ]
    let juices = Self.catalog.juices
    var random = SystemRandomNumberGenerator()
    let shops = ["east", "west", "north"]
    for step in 0..<120 {
      let shop = shops[Int.random(in: 0..<shops.count, using: &random)]
      if step % 7 == 6 {
        // An edit: a restock of a random fruit.
        let index = Int.random(in: 0..<3, using: &random)
        _ = try storage.perform(add(Self.fruits[index].id, 25, by: shop), touching: [index]) {
          levels in
          levels[index] += 25
          return .done
        }
        continue
      }
      let juice = juices[Int.random(in: 0..<juices.count, using: &random)]
      let count = Int.random(in: 1...3, using: &random)
      let needs = juice.ingredients.map { ingredient in
        (index: Self.fruits.firstIndex { $0.id == ingredient.fruit } ?? 0, amount: ingredient.count)
      }
      let operation = StockOperation(
        editor: shop, action: .order(juice.id, count: count),
        // Some orders of a juice without its price, as a menu without prices makes them.
        price: step % 5 == 0 ? nil : prices[juice.id])
      _ = try storage.perform(operation, touching: needs.map(\.index).sorted()) { levels in
        let shortages = needs.filter { levels[$0.index] < $0.amount * count }
        guard shortages.isEmpty else {
          return .refused(
            shortages.map {
              Shortage(
                fruit: Self.fruits[$0.index].id, needed: $0.amount * count,
                available: levels[$0.index])
            })
        }
        for need in needs { levels[need.index] -= need.amount * count }
        return .done
      }
    }
    let journal = try storage.journal(JournalQuery())
    // The sums over the journal, counted here without the report's code.
    var made = 0
    var refused = 0
    var takings: Int64 = 0
    var used = 0
    for entry in journal {
      guard case .order(_, let count) = entry.operation.action else { continue }
      switch entry.outcome {
      case .done:
        made += count
        takings += (entry.operation.price?.minorUnits ?? 0) * Int64(count)
        used += entry.changes.reduce(0) { $0 + $1.before - $1.after }
      case .refused: refused += count
      case .conflict: break
      }
    }
    #expect(made > 0 && refused > 0, "the random orders made some and refused some")
    let middle = journal[journal.count / 2].date
    for grouping in ReportQuery.Grouping.allCases {
      let rows = try storage.report(ReportQuery(by: grouping, utcOffset: 9 * 3600))
      if grouping != .fruit {
        #expect(rows.reduce(0) { $0 + $1.made } == made, "\(grouping)")
        #expect(rows.reduce(0) { $0 + $1.refused } == refused, "\(grouping)")
        #expect(rows.reduce(0) { $0 + $1.used } == used, "\(grouping)")
        #expect(
          rows.flatMap(\.takings).reduce(0) { $0 + $1.minorUnits } == takings, "\(grouping)")
      } else {
        #expect(rows.reduce(0) { $0 + $1.used } == used)
      }
      // Every row, and every filter, as the report rule counts the journal.
      for query in [
        ReportQuery(by: grouping, utcOffset: -5 * 3600),
        ReportQuery(by: grouping, since: middle), ReportQuery(by: grouping, until: middle),
        ReportQuery(by: grouping, editor: "west"),
      ] {
        #expect(try storage.report(query) == StockReport.rows(journal, query), "\(query)")
      }
    }
    #expect(try storage.journalCount(JournalQuery()) == journal.count)
    #expect(
      try storage.journalCount(JournalQuery(editor: "east", limit: 1))
        == journal.filter { $0.operation.editor == "east" }.count)
    #expect(
      try storage.journalCount(JournalQuery(until: middle))
        == journal.filter { $0.date < middle }.count)
  }

  // MARK: - Atomicity

  func operationChangesItsLevelsTogether() throws {
    let store = try kind.makeStore(Self.fruits)
    let storages = try (0..<4).map { _ in try store.open() }
    let reader = try store.open()
    let torn = Mutex(0)
    let done = Atomic<Bool>(false)
    let group = DispatchGroup()
    for storage in storages {
      group.enter()
      Thread {
        defer { group.leave() }
        for _ in 0..<25 {
          _ = try? storage.perform(
            StockOperation(editor: "mover", action: .order("kiwi-juice", count: 1)),
            touching: [0, 1]
          ) { levels in
            levels[0] += 1
            levels[1] -= 1
            return .done
          }
        }
      }.start()
    }
    let watcher = Thread {
      while !done.load(ordering: .acquiring) {
        if let levels = try? reader.levels(), levels[0] + levels[1] != 200 {
          torn.withLock { $0 += 1 }
        }
      }
    }
    watcher.start()
    group.wait()
    done.store(true, ordering: .releasing)
    #expect(torn.withLock { $0 } == 0)
    #expect(try reader.levels() == [200, 0, 100])
    #expect(try reader.journal(JournalQuery()).count == 100)
  }

  func refusalChangesNothingButIsJournaled() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let shortage = Shortage(fruit: "kiwi", needed: 101, available: 100)
    let operation = StockOperation(editor: "clerk", action: .remove("kiwi", count: 101))
    let receipt = try storage.perform(operation, touching: [2]) { levels in
      levels[2] -= 101
      return .refused([shortage])
    }
    #expect(!receipt.replayed)
    #expect(receipt.entry.outcome == .refused([shortage]))
    #expect(receipt.entry.changes.isEmpty)
    #expect(try storage.levels() == [100, 100, 100])
    #expect(try storage.journal(JournalQuery()) == [receipt.entry])
  }

  func bodyLeavingNegativeStockKeepsNothing() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let error = #expect(throws: StockStorageError.self) {
      try storage.perform(self.add("kiwi", 1), touching: [1, 2]) { levels in
        levels[1] -= 1
        levels[2] = -1
        return .done
      }
    }
    guard case .invalid(let name, let cause) = error else {
      Issue.record("expected .invalid, got \(String(describing: error))")
      return
    }
    #expect(name == storage.location)
    #expect(cause.message.contains("kiwi"))
    #expect(try storage.levels() == [100, 100, 100])
    #expect(try storage.journal(JournalQuery()).isEmpty)
  }

  // MARK: - Journal

  func journalIsNewestFirstAndFiltered() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let start = Date(timeIntervalSinceNow: -1)
    var receipts: [StockReceipt] = []
    for (index, editor) in ["east", "west", "east", "west", "east"].enumerated() {
      receipts.append(
        try storage.perform(add("banana", index + 1, by: editor), touching: [1]) { levels in
          levels[1] += index + 1
          return .done
        })
    }
    let all = try storage.journal(JournalQuery())
    #expect(all == receipts.map(\.entry).reversed())
    #expect(all.map(\.sequence) == all.map(\.sequence).sorted(by: >))
    #expect(
      all.map(\.changes)
        == [5, 4, 3, 2, 1].map { count in
          let after = 100 + (1...count).reduce(0, +)
          return [StockChange.Level(fruit: "banana", before: after - count, after: after)]
        })
    #expect(
      try storage.journal(JournalQuery(editor: "west")).map(\.operation.action)
        == [.add("banana", count: 4), .add("banana", count: 2)])
    #expect(
      try storage.journal(JournalQuery(after: receipts[2].entry.sequence))
        == [receipts[4].entry, receipts[3].entry])
    #expect(try storage.journal(JournalQuery(limit: 2)) == Array(all.prefix(2)))
    #expect(try storage.journal(JournalQuery(since: start)).count == 5)
    #expect(try storage.journal(JournalQuery(since: Date(timeIntervalSinceNow: 60))).isEmpty)
    #expect(try storage.entry(for: receipts[1].entry.id) == receipts[1].entry)
    #expect(try storage.entry(for: "no-such-request") == nil)
  }

  func sameRequestIDReplaysTheFirstOutcome() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let again = try store.open()
    let operation = StockOperation(
      id: "order-42", editor: "downtown", action: .order("kiwi-juice", count: 1))
    let first = try storage.perform(operation, touching: [2]) { levels in
      levels[2] -= 3
      return .done
    }
    let ran = Mutex(false)
    let second = try again.perform(operation, touching: [2]) { levels in
      ran.withLock { $0 = true }
      levels[2] -= 3
      return .refused([])
    }
    #expect(!first.replayed)
    #expect(second.replayed)
    #expect(second.entry == first.entry)
    #expect(ran.withLock { $0 } == false)
    #expect(try again.levels() == [100, 100, 97])
    #expect(try again.journal(JournalQuery()).count == 1)
  }

  func anotherOperationUnderAUsedRequestIDIsRefusedAndChangesNothing() throws {
    let store = try kind.makeStore(Self.fruits)
    let storage = try store.open()
    let again = try store.open()
    let first = try storage.perform(
      StockOperation(
        id: "X2", editor: "downtown", action: .order("strawberry-banana-juice", count: 1)),
      touching: [0, 1]
    ) { levels in
      levels[0] -= 10
      levels[1] -= 1
      return .done
    }
    let ran = Mutex(false)
    for operation in [
      StockOperation(id: "X2", editor: "downtown", action: .order("kiwi-juice", count: 5)),
      StockOperation(id: "X2", editor: "downtown", action: .add("kiwi", count: 15)),
    ] {
      let reused = try again.perform(operation, touching: [0, 1, 2]) { levels in
        ran.withLock { $0 = true }
        levels[2] -= 15
        return .done
      }
      #expect(reused.status == .idReused)
      #expect(reused.entry == first.entry)
    }
    #expect(ran.withLock { $0 } == false)
    #expect(try again.levels() == [90, 99, 100])
    #expect(try again.journal(JournalQuery()).count == 1)
    #expect(try again.entry(for: "X2") == first.entry)
  }

  func compareAndSetWithAStaleLevelConflicts() throws {
    let store = try kind.makeStore(Self.fruits)
    let fruitStore = FruitStore(storage: try store.open())
    #expect(
      try fruitStore.setStock(40, of: "kiwi", expecting: 100)
        == StockChange.Level(fruit: "kiwi", before: 100, after: 40))
    #expect(throws: FruitStoreError.stockChanged(fruit: "kiwi", expected: 100, actual: 40)) {
      try fruitStore.setStock(7, of: "kiwi", by: "late", expecting: 100)
    }
    #expect(try fruitStore.stock(of: "kiwi") == 40)
    let conflict = try #require(try fruitStore.journal(JournalQuery(limit: 1)).first)
    #expect(conflict.operation.editor == "late")
    #expect(conflict.outcome == .conflict(fruit: "kiwi", expected: 100, actual: 40))
    #expect(conflict.changes.isEmpty)
  }

  // MARK: - Observers

  func observersSeeEachChangeOnce() async throws {
    let store = try kind.makeStore(Self.fruits)
    let fruitStore = FruitStore(storage: try store.open())
    let shop = JuiceMaker(name: "downtown", catalog: Self.catalog, store: fruitStore)
    let seen = Mutex<[StockChange]>([])
    let observation = fruitStore.observe { change in seen.withLock { $0.append(change) } }
    try fruitStore.add(2, of: "kiwi", by: "clerk")
    try shop.make("strawberry-banana-juice")
    #expect(throws: JuiceMakerError.self) { try shop.make("kiwi-juice", count: 50) }
    // Long enough for the watcher to read the same entries from the journal.
    try await Task.sleep(for: .milliseconds(400))
    observation.cancel()
    let changes = seen.withLock { $0 }
    #expect(changes.map(\.operation.editor) == ["clerk", "downtown"])
    #expect(
      changes.map(\.levels) == [
        [StockChange.Level(fruit: "kiwi", before: 100, after: 102)],
        [
          StockChange.Level(fruit: "strawberry", before: 100, after: 90),
          StockChange.Level(fruit: "banana", before: 100, after: 99),
        ],
      ])
  }

  func anotherStoresOrderReachesObserversWithinASecond() async throws {
    let store = try kind.makeStore(Self.fruits)
    let watching = FruitStore(storage: try store.open())
    let other = FruitStore(storage: try store.open())
    let seen = Mutex<[StockChange]>([])
    let observation = watching.observe { change in seen.withLock { $0.append(change) } }
    defer { observation.cancel() }
    let airport = JuiceMaker(name: "airport", catalog: Self.catalog, store: other)
    try airport.make("strawberry-banana-juice")
    let deadline = ContinuousClock.now + .seconds(1)
    while seen.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    let changes = seen.withLock { $0 }
    #expect(changes.count == 1)
    #expect(changes.first?.operation.editor == "airport")
    #expect(changes.first?.operation.action == .order("strawberry-banana-juice", count: 1))
    #expect(
      changes.first?.levels == [
        StockChange.Level(fruit: "strawberry", before: 100, after: 90),
        StockChange.Level(fruit: "banana", before: 100, after: 99),
      ])
  }

  // MARK: - Shops

  func concurrentShopsConserveStock() throws {
    let store = try kind.makeStore(Self.fruits)
    let catalog = Self.catalog
    struct Tally: Sendable {
      var withdrawn = [0, 0, 0]
      var restocked = [0, 0, 0]
      var failures: [String] = []
    }
    let tallies = Mutex<[Tally]>([])
    let group = DispatchGroup()
    for index in 0..<4 {
      let shop = JuiceMaker(
        name: "shop-\(index)", catalog: catalog, store: FruitStore(storage: try store.open()))
      group.enter()
      Thread {
        defer { group.leave() }
        var tally = Tally()
        var random = SplitMix64(seed: UInt64(index))
        for step in 1...60 {
          if step % 10 == 0 {
            let fruit = Int(random.next() % 3)
            do {
              try shop.restock(5, of: catalog.fruits[fruit].id)
              tally.restocked[fruit] += 5
            } catch {
              tally.failures.append("\(error)")
            }
          }
          let juice = catalog.juices[Int(random.next() % 2)]
          do throws(JuiceMakerError) {
            try shop.make(juice)
            for ingredient in juice.ingredients {
              let fruit = catalog.fruits.firstIndex { $0.id == ingredient.fruit } ?? 0
              tally.withdrawn[fruit] += ingredient.count
            }
          } catch {
            if case .outOfStock = error { continue }
            tally.failures.append("\(error)")
          }
        }
        tallies.withLock { $0.append(tally) }
      }.start()
    }
    group.wait()
    let all = tallies.withLock { $0 }
    #expect(all.flatMap(\.failures).isEmpty)
    let expected = (0..<3).map { fruit -> Int in
      let restocked = all.map { $0.restocked[fruit] }.reduce(0, +)
      let withdrawn = all.map { $0.withdrawn[fruit] }.reduce(0, +)
      return 100 + restocked - withdrawn
    }
    #expect(try store.open().levels() == expected)
  }

  func everyOrderAndRestockOfAShopIsJournaled() throws {
    let store = try kind.makeStore(Self.fruits)
    let fruitStore = FruitStore(storage: try store.open())
    let shop = JuiceMaker(name: "corner", catalog: Self.catalog, store: fruitStore)
    let kiwi = try #require(Self.catalog.handle(of: "kiwi-juice"))
    for _ in 0..<3 { try shop.make(kiwi) }
    try shop.restock(2, of: "banana")
    #expect(throws: JuiceMakerError.self) {
      try shop.make("strawberry-banana-juice", count: 11)
    }
    let journal = try fruitStore.journal()
    #expect(
      journal.map(\.operation.action).reversed() == [
        .order("kiwi-juice", count: 1), .order("kiwi-juice", count: 1),
        .order("kiwi-juice", count: 1), .add("banana", count: 2),
        .order("strawberry-banana-juice", count: 11),
      ])
    #expect(journal.allSatisfy { $0.operation.editor == "corner" })
    #expect(
      journal.first?.outcome
        == .refused([Shortage(fruit: "strawberry", needed: 110, available: 100)]))
    #expect(
      journal.last?.changes == [StockChange.Level(fruit: "kiwi", before: 100, after: 97)])
  }

  // MARK: - Failures

  func failureNamesTheStoreKeepsTheCauseAndChangesNothing() throws {
    let store = try kind.makeStore(Self.fruits)
    let reader = try store.open()
    let locked = try #require(store.locked)
    try locked { storage in
      let error = #expect(throws: StockStorageError.self) {
        try storage.perform(self.add("kiwi", 1), touching: [2]) { levels in
          levels[2] += 1
          return .done
        }
      }
      guard case .unavailable(let name, let cause) = error else {
        Issue.record("expected .unavailable, got \(String(describing: error))")
        return
      }
      #expect(name == storage.location)
      #expect(!cause.message.isEmpty)
      #expect(!cause.purpose.isEmpty)
      #expect(!cause.code.isEmpty)
    }
    #expect(try reader.levels() == [100, 100, 100])
    #expect(try reader.journal(JournalQuery()).isEmpty)
  }
}
