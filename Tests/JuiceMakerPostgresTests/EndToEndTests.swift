import Foundation
import TemporaryPostgres
import Testing

/// The built `juice-maker` against a PostgreSQL server: every command, many shop processes,
/// exactly-once request ids.
@Suite(.enabled(if: Postgres.canRun, Postgres.skipReason))
struct EndToEndTests {
  /// The shipped recipes, by juice id.
  static let recipes: [String: [String: Int]] = [
    "strawberry-juice": ["strawberry": 16], "banana-juice": ["banana": 2],
    "kiwi-juice": ["kiwi": 3], "pineapple-juice": ["pineapple": 2],
    "strawberry-banana-juice": ["strawberry": 10, "banana": 1], "mango-juice": ["mango": 3],
    "mango-kiwi-juice": ["mango": 2, "kiwi": 1],
  ]
  static let names = [
    "Strawberry Juice": "strawberry-juice", "Banana Juice": "banana-juice",
    "Kiwi Juice": "kiwi-juice", "Pineapple Juice": "pineapple-juice",
    "Strawberry Banana Juice": "strawberry-banana-juice", "Mango Juice": "mango-juice",
    "Mango Kiwi Juice": "mango-kiwi-juice",
  ]

  @Test func everyCommandRunsAgainstTheServer() async throws {
    let (server, _, database) = try Postgres.newDatabase()
    let store = server.tcpURI(database: database)
    try await JuiceMakerRun.initialize(store)
    for arguments in [
      ["menu"], ["stock"], ["order", "banana-juice"], ["stock", "add", "kiwi", "5"],
      ["stock", "remove", "kiwi", "1"], ["stock", "set", "mango", "7", "--if-stock", "10"],
      ["history"], ["validate"],
    ] {
      let outcome = try await JuiceMakerRun.run(arguments, store: store)
      #expect(outcome.status == 0, "\(arguments): \(outcome)")
      #expect(
        !outcome.stdout.contains(server.password) && !outcome.stderr.contains(server.password))
    }
    let shop = try await JuiceMakerRun.run(["shop"], store: store, input: "2\nq\n")
    #expect(shop.status == 0, "\(shop)")
    let stock = try await JuiceMakerRun.run(["--json", "stock"], store: store)
    let fruits = try #require(try stock.json()["fruits"] as? [[String: Any]])
    let levels = Dictionary(
      uniqueKeysWithValues: fruits.compactMap { fruit in
        (fruit["id"] as? String).flatMap { id in (fruit["stock"] as? Int).map { (id, $0) } }
      })
    #expect(levels["banana"] == 6)
    #expect(levels["kiwi"] == 14)
    #expect(levels["mango"] == 7)
    let rush = try await JuiceMakerRun.run(
      ["rush", "--shops", "2", "--orders", "20"], store: store)
    #expect(rush.status == 0, "\(rush)")
    #expect(rush.stdout.hasPrefix("Store: postgresql://postgres:***@"), "\(rush)")
    #expect(!rush.stdout.contains(server.password), "\(rush)")
    let audit = try Audit(server.socketURI(database: database))
    #expect(try audit.levels() == audit.journaledLevels())
  }

  @Test func eightShopsOf250OrdersOverTCPConserveStockExactly() async throws {
    let (server, _, database) = try Postgres.newDatabase()
    let store = server.tcpURI(database: database)
    try await JuiceMakerRun.initialize(store)
    let initial = ["strawberry": 300, "banana": 300, "pineapple": 300, "kiwi": 300, "mango": 300]
    for (fruit, level) in initial.sorted(by: { $0.key < $1.key }) {
      let outcome = try await JuiceMakerRun.run(
        ["stock", "set", fruit, String(level)], store: store)
      #expect(outcome.status == 0, "\(outcome)")
    }
    let shops = 8
    let ordersPerShop = 250
    let restocksPerShop = 5
    let restock = 20
    var script = ""
    for order in 0..<ordersPerShop {
      script += "\(order % 7 + 1)\nn\n"
      if order % (ordersPerShop / restocksPerShop) == 0 {
        script += "s\n+ strawberry \(restock)\nc\n"
      }
    }
    script += "q\n"
    let input = script
    let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
      for shop in 1...shops {
        group.addTask {
          try await JuiceMakerRun.run(
            ["--lang", "en", "--shop", "shop-\(shop)", "shop"], store: store, input: input)
        }
      }
      return try await group.reduce(into: [Outcome]()) { $0.append($1) }
    }
    var made: [String: Int] = [:]
    var refused = 0
    for outcome in outcomes {
      #expect(outcome.status == 0, "\(outcome.stderr)")
      for line in outcome.stdout.split(separator: "\n") {
        if let match = line.firstMatch(of: /Here is your (.+)\. Enjoy!/) {
          made[try #require(Self.names[String(match.1)]), default: 0] += 1
        } else if line.contains("Not enough fruit.") {
          refused += 1
        }
      }
    }
    #expect(made.values.reduce(0, +) + refused == shops * ordersPerShop)
    #expect(made.values.reduce(0, +) > 0)
    var expected = initial
    expected["strawberry", default: 0] += shops * restocksPerShop * restock
    for (juice, count) in made {
      for (fruit, amount) in try #require(Self.recipes[juice]) {
        expected[fruit, default: 0] -= amount * count
      }
    }
    let audit = try Audit(server.socketURI(database: database))
    #expect(try audit.levels() == expected)
    #expect(try audit.journaledLevels() == expected)
    #expect(
      try audit.journalCount() == initial.count + shops * (ordersPerShop + restocksPerShop))
  }

  @Test func theSameRequestIDSentTwiceAndConcurrentlyIsAppliedOnce() async throws {
    let (server, uri, _) = try Postgres.newDatabase()
    try await JuiceMakerRun.initialize(uri)
    let arguments = ["--json", "order", "strawberry-banana-juice", "--request-id", "till-3-42"]
    async let first = JuiceMakerRun.run(arguments, store: uri)
    async let second = JuiceMakerRun.run(arguments, store: uri)
    let both = try await [first, second]
    let again = try await JuiceMakerRun.run(arguments, store: uri)
    for outcome in both + [again] {
      #expect(outcome.status == 0, "\(outcome)")
      #expect(try outcome.json()["ok"] as? Bool == true)
    }
    #expect(both[0].stdout == both[1].stdout)
    let audit = try Audit(uri)
    #expect(try audit.journalCount() == 1)
    #expect(try audit.levels()["strawberry"] == 0)
    // A refused order keeps its first outcome too, even after a restock.
    let refusal = ["order", "strawberry-juice", "--request-id", "till-3-43"]
    #expect(try await JuiceMakerRun.run(refusal, store: uri).status == 1)
    #expect(
      try await JuiceMakerRun.run(["stock", "add", "strawberry", "20"], store: uri).status == 0)
    #expect(try await JuiceMakerRun.run(refusal, store: uri).status == 1)
    #expect(try audit.levels()["strawberry"] == 20)
    _ = server
  }

  @Test func anotherOrderUnderAUsedRequestIDIsRefusedAndMakesNothing() async throws {
    let (server, uri, _) = try Postgres.newDatabase()
    try await JuiceMakerRun.initialize(uri)
    let first = try await JuiceMakerRun.run(
      ["order", "banana-juice", "--request-id", "X2"], store: uri)
    #expect(first.status == 0, "\(first)")
    let reused = try await JuiceMakerRun.run(
      ["--json", "order", "kiwi-juice", "--count", "5", "--request-id", "X2"], store: uri)
    #expect(reused.status == 64, "\(reused)")
    #expect(try reused.json()["ok"] as? Bool != true)
    #expect(reused.stdout.contains("X2") && reused.stdout.contains("banana-juice"), "\(reused)")
    let audit = try Audit(uri)
    #expect(try audit.journalCount() == 1)
    #expect(try audit.levels()["kiwi"] == 10)
    #expect(try audit.levels()["banana"] == 8)
    _ = server
  }
}
