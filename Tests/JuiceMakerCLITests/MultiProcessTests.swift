import Foundation
import Testing

/// Several `juice-maker` processes against one store file: no fruit is oversold, no update is
/// lost, and the journal holds exactly one entry per operation.
struct MultiProcessTests {
  /// The shipped recipes, by juice id.
  static let recipes: [String: [String: Int]] = [
    "strawberry-juice": ["strawberry": 16],
    "banana-juice": ["banana": 2],
    "kiwi-juice": ["kiwi": 3],
    "pineapple-juice": ["pineapple": 2],
    "strawberry-banana-juice": ["strawberry": 10, "banana": 1],
    "mango-juice": ["mango": 3],
    "mango-kiwi-juice": ["mango": 2, "kiwi": 1],
  ]
  /// The juices in menu order, as the shop numbers them.
  static let menu = [
    "strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice",
    "strawberry-banana-juice", "mango-juice", "mango-kiwi-juice",
  ]
  /// English names, as the shop prints them.
  static let names = [
    "Strawberry Juice": "strawberry-juice", "Banana Juice": "banana-juice",
    "Kiwi Juice": "kiwi-juice", "Pineapple Juice": "pineapple-juice",
    "Strawberry Banana Juice": "strawberry-banana-juice", "Mango Juice": "mango-juice",
    "Mango Kiwi Juice": "mango-kiwi-juice",
  ]

  @Test(arguments: [2, 4])
  func processesOnAFreshStoreMakeOneJuiceBetweenThem(processes: Int) async throws {
    // The processes may all create the default store at once (the one store made on first
    // use); repeat to give a race a chance to show.
    for trial in 1...6 {
      let sandbox = try Sandbox(.absent)
      let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
        for _ in 0..<processes {
          group.addTask {
            try await sandbox.run(["--json", "order", "strawberry-banana-juice"], useStore: false)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      let expectedStatus = [0] + Array(repeating: Int32(1), count: processes - 1)
      #expect(outcomes.map(\.status).sorted() == expectedStatus, "trial \(trial): \(outcomes)")
      let errors = try outcomes.map { try $0.json() }.compactMap { $0.string("error") }
      #expect(errors == Array(repeating: "outOfStock", count: processes - 1), "trial \(trial)")
      let notices = outcomes.filter { $0.stderr.hasPrefix("Created the default store ") }
      #expect(notices.count == 1, "trial \(trial): one process created the store: \(outcomes)")
      let stock = try await sandbox.run(["--json", "stock"], useStore: false).json()
      #expect(
        stock.objects("fruits").map { $0.int("stock") } == [0, 9, 10, 10, 10], "trial \(trial)")
      let history = try await sandbox.run(["--json", "history"], useStore: false).json()
      #expect(history.objects("entries").count == processes, "trial \(trial)")
    }
  }

  @Test func twoProcessesOrderingAgainstOneStoreNeverOversell() async throws {
    let sandbox = try Sandbox()
    // Enough strawberries for exactly 7 strawberry banana juices.
    await sandbox.setStock(["strawberry": 70, "banana": 10])
    func orders(shop: String) async throws -> [Outcome] {
      var outcomes: [Outcome] = []
      for _ in 0..<8 {
        outcomes.append(
          try await sandbox.run(["--json", "--shop", shop, "order", "strawberry-banana-juice"]))
      }
      return outcomes
    }
    async let east = orders(shop: "east")
    async let west = orders(shop: "west")
    let outcomes = try await east + west
    #expect(outcomes.filter { $0.status == 0 }.count == 7, "\(outcomes)")
    #expect(outcomes.filter { $0.status == 1 }.count == 9, "\(outcomes)")
    for outcome in outcomes {
      #expect(outcome.stderr == "", "\(outcome)")
      let document = try outcome.json()
      #expect(document.bool("ok") == (outcome.status == 0))
    }
    #expect(
      try await sandbox.stock() == [
        "strawberry": 0, "banana": 3, "pineapple": 10, "kiwi": 10, "mango": 10,
      ])
    let history = try await sandbox.history()
    #expect(history.count == 2 + 16)
    let orders = history.filter { $0.string("kind") == "order" }
    #expect(orders.filter { $0.string("outcome") == "done" }.count == 7)
    #expect(Set(orders.compactMap { $0.string("shop") }) == ["east", "west"])
  }

  @Test func fourShopsOf250OrdersWithdrawExactlyWhatTheyMade() async throws {
    let sandbox = try Sandbox()
    let initial = ["strawberry": 150, "banana": 150, "pineapple": 150, "kiwi": 150, "mango": 150]
    await sandbox.setStock(initial)
    let shops = 4
    let ordersPerShop = 250
    let restocksPerShop = 5
    let restock = 20
    // Each order is followed by "n": after a refusal it answers the shop's question, after a
    // juice it is an unknown choice, reported on standard error.
    var script = ""
    for order in 0..<ordersPerShop {
      script += "\(order % Self.menu.count + 1)\nn\n"
      if order % (ordersPerShop / restocksPerShop) == 0 {
        script += "s\n+ strawberry \(restock)\nc\n"
      }
    }
    script += "q\n"
    let input = script
    let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
      for shop in 1...shops {
        group.addTask { try await sandbox.run(["--shop", "shop-\(shop)", "shop"], input: input) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }

    var made: [String: Int] = [:]
    var refusedCount = 0
    for outcome in outcomes {
      #expect(outcome.status == 0, "\(outcome.stderr)")
      var madeHere = 0
      for line in outcome.lines {
        if let match = line.firstMatch(of: /Here is your (.+)\. Enjoy!/) {
          let juice = try #require(Self.names[String(match.1)])
          made[juice, default: 0] += 1
          madeHere += 1
        } else if line.contains("Not enough fruit.") {
          refusedCount += 1
        }
      }
      let unknown =
        "There is no juice “n” on the menu. Type a juice's number or name to order it, s to edit the stock, q to quit, ? for this help."
      #expect(outcome.errorLines == Array(repeating: unknown, count: madeHere))
      // The "n" after a juice is an unknown choice, so the prompt is written once more
      // before "q" when the last order was served.
      let lastServed =
        outcome.lines.last { $0.contains("Enjoy!") || $0.contains("Not enough fruit.") }?
        .contains("Enjoy!") == true
      #expect(outcome.lines.last == (lastServed ? "> > " : "> ") + "Thank you, come again!")
    }
    let madeCount = made.values.reduce(0, +)
    #expect(madeCount + refusedCount == shops * ordersPerShop)
    #expect(madeCount > 0)
    #expect(refusedCount > 0)

    // The stock withdrawn is exactly what the juices made take.
    var expected = initial
    expected["strawberry", default: 0] += shops * restocksPerShop * restock
    for (juice, count) in made {
      for (fruit, amount) in try #require(Self.recipes[juice]) {
        expected[fruit, default: 0] -= amount * count
      }
    }
    let final = try await sandbox.stock()
    #expect(final == expected)

    // One journal entry per operation, and the entries add up to the stock.
    let history = try await sandbox.history()
    #expect(history.count == initial.count + shops * (ordersPerShop + restocksPerShop))
    let orders = history.filter { $0.string("kind") == "order" }
    #expect(orders.filter { $0.string("outcome") == "done" }.count == madeCount)
    #expect(orders.filter { $0.string("outcome") == "refused" }.count == refusedCount)
    #expect(history.filter { $0.string("kind") == "add" }.count == shops * restocksPerShop)
    var journaled: [String: Int] = [:]
    for entry in orders where entry.string("outcome") == "done" {
      journaled[try #require(entry.string("subject")), default: 0] += 1
    }
    #expect(journaled == made)
    var total = freshStock
    for entry in history {
      for (fruit, delta) in entry.counts("changes") {
        total[fruit, default: 0] += delta
      }
    }
    #expect(total == final)
    let ids = history.compactMap { $0.int("id") }
    #expect(Set(ids).count == history.count)
    #expect(ids == ids.sorted(by: >))
  }
}
