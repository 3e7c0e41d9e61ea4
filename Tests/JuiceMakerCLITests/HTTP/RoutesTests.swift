import Foundation
import Testing

extension HTTPTests {
  /// Every route of the API answers as api.md says, over a SQLite store the CLI reads too.
  @Suite struct RoutesTests {
    @Test func serveStartsAndPrintsItsOriginFirst() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      #expect(server.originLine == "http://127.0.0.1:\(server.port)/")
      #expect(server.port > 0)
      let health = try await server.client().get("/healthz")
      #expect(try expectJSON(health, status: 200) == ["status": "ok", "menu": ["version": 0]])
      #expect(try await server.terminate() == 0)
    }

    @Test func menuListsEveryJuiceWithItsRecipeAndHowManyCanBeMade() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let menu = try expectJSON(try await server.client().get("/api/v1/menu"), status: 200)
      #expect(menu["sequence"]?.int != nil, "\(menu)")
      let juices = try #require(menu["juices"]?.array)
      #expect(
        juices.compactMap { $0["id"]?.string } == [
          "strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice",
          "strawberry-banana-juice", "mango-juice", "mango-kiwi-juice",
        ])
      let blend = try #require(juices.first { $0["id"] == "strawberry-banana-juice" })
      #expect(blend["name"] == "Strawberry Banana Juice")
      #expect(blend["makeable"] == 1)
      #expect(
        withoutNames(blend["recipe"])
          == [
            ["fruit": "strawberry", "count": 10],
            ["fruit": "banana", "count": 1],
          ])
      let strawberry = try #require(juices.first { $0["id"] == "strawberry-juice" })
      #expect(strawberry["makeable"] == 0)
    }

    @Test func stockListsEveryFruitWithItsLevelAndTheSequenceItWasReadAt() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let before = try expectJSON(try await client.get("/api/v1/stock"), status: 200)
      let fruits = try #require(before["fruits"]?.array)
      #expect(
        fruits.compactMap { $0["id"]?.string } == [
          "strawberry", "banana", "pineapple", "kiwi", "mango",
        ])
      #expect(fruits.allSatisfy { $0["level"] == 10 && $0["name"]?.string != nil }, "\(before)")
      let first = try #require(before["sequence"]?.int)

      let outcome = try await sandbox.run(["order", "banana-juice"])
      #expect(outcome.status == 0, "\(outcome)")
      let after = try expectJSON(try await client.get("/api/v1/stock"), status: 200)
      #expect(try #require(after["sequence"]?.int) > first)
      #expect(after["fruits"]?.array?.first { $0["id"] == "banana" }?["level"] == 8, "\(after)")
    }

    @Test func anOrderIsMadeOnceAndTheCLISeesIt() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().order("banana-juice", count: 2)
      let order = try expectJSON(response, status: 201)
      let requestID = try #require(order["requestId"]?.string)
      #expect(response.header("Idempotency-Key") == requestID, "\(response)")
      #expect(order["sequence"]?.int != nil)
      #expect(order["juice"] == "banana-juice")
      #expect(order["name"] == "Banana Juice")
      #expect(order["count"] == 2)
      #expect(order["message"] == "Here are 2 cups of Banana Juice. Enjoy!")
      #expect(withoutNames(order["levels"]) == [["fruit": "banana", "level": 6]])
      #expect(try await sandbox.stock()["banana"] == 6)
      let history = try await sandbox.history()
      #expect(history.count == 1)
      #expect(history.first?.string("request") == requestID)
    }

    @Test(arguments: ["딸바쥬스", "Strawberry Banana Juice", "strawberry-banana-juice"])
    func anOrderNamesItsJuiceByIDOrName(juice: String) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let order = try expectJSON(try await server.client().order(juice), status: 201)
      #expect(order["juice"] == "strawberry-banana-juice")
      #expect(order["count"] == 1)
    }

    @Test func anOrderWithoutEnoughFruitIsRefusedWithEveryShortage() async throws {
      let sandbox = try Sandbox()
      await sandbox.setStock(["strawberry": 3, "banana": 0])
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().order("strawberry-banana-juice", count: 2)
      let problem = try expectProblem(response, status: 409, code: "outOfStock")
      #expect(
        withoutNames(problem["shortages"])
          == [
            ["fruit": "strawberry", "needed": 20, "available": 3],
            ["fruit": "banana", "needed": 2, "available": 0],
          ], "\(problem)")
      #expect(
        problem["detail"]
          == "Not enough fruit. Edit the stock? Missing: 17 more strawberries, 2 more bananas.")
      #expect(try await sandbox.stock()["strawberry"] == 3)
    }

    @Test func stockEditsAddRemoveAndSet() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let added = try expectJSON(
        try await client.post("/api/v1/stock/kiwi", json: ["add": 3]), status: 200)
      #expect(added["fruit"] == "kiwi")
      #expect(added["name"]?.string?.isEmpty == false)
      #expect(added["before"] == 10)
      #expect(added["after"] == 13)
      #expect(added["requestId"]?.string?.isEmpty == false)
      #expect(added["sequence"]?.int != nil)
      #expect(added["message"]?.string?.isEmpty == false)
      let removed = try expectJSON(
        try await client.post("/api/v1/stock/kiwi", json: ["remove": 5]), status: 200)
      #expect(removed["before"] == 13)
      #expect(removed["after"] == 8)
      let set = try expectJSON(
        try await client.post("/api/v1/stock/kiwi", json: ["set": 20]), status: 200)
      #expect(set["after"] == 20)
      let checked = try expectJSON(
        try await client.post("/api/v1/stock/kiwi", json: ["set": 4, "expected": 20]), status: 200)
      #expect(checked["before"] == 20)
      #expect(checked["after"] == 4)
      #expect(try await sandbox.stock()["kiwi"] == 4)
      #expect(try await sandbox.history().count == 4)
    }

    @Test func aStockEditNamesItsFruitByAPercentEncodedName() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let korean = try expectJSON(
        try await client.post("/api/v1/stock/%ED%82%A4%EC%9C%84", json: ["add": 1]), status: 200)
      #expect(korean["fruit"] == "kiwi")
      let english = try expectJSON(
        try await client.post("/api/v1/stock/Kiwi", json: ["add": 1]), status: 200)
      #expect(english["fruit"] == "kiwi")
      #expect(english["after"] == 12)
    }

    @Test func aSetAgainstAStaleLevelIsAConflict() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().post(
        "/api/v1/stock/mango", json: ["set": 3, "expected": 7])
      let problem = try expectProblem(response, status: 409, code: "stockChanged")
      #expect(problem["fruit"] == "mango")
      #expect(problem["expected"] == 7)
      #expect(problem["actual"] == 10)
      #expect(try await sandbox.stock()["mango"] == 10)
    }

    @Test func removingMoreThanThereIsIsOutOfStock() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().post("/api/v1/stock/kiwi", json: ["remove": 11])
      let problem = try expectProblem(response, status: 409, code: "outOfStock")
      #expect(problem["shortages"]?[0]?["fruit"] == "kiwi", "\(problem)")
      #expect(try await sandbox.stock()["kiwi"] == 10)
    }

    @Test func historyIsNewestFirstAndFiltersByLimitAndShop() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox, global: ["--shop", "airport"])
      let client = server.client()
      _ = try await client.order("banana-juice")
      _ = try await client.post("/api/v1/stock/kiwi", json: ["add": 3])
      let cli = try await sandbox.run(["--shop", "downtown", "order", "mango-juice"])
      #expect(cli.status == 0, "\(cli)")

      let all = try expectJSON(try await client.get("/api/v1/history"), status: 200)
      let entries = try #require(all["entries"]?.array)
      #expect(entries.count == 3, "\(all)")
      let sequences = entries.compactMap { $0["sequence"]?.int }
      #expect(sequences == sequences.sorted(by: >), "\(all)")
      #expect(entries.map { $0["shop"] } == ["downtown", "airport", "airport"])
      #expect(entries.map { $0["action"] } == ["order", "add", "order"])
      #expect(entries[1]["fruit"] == "kiwi")
      #expect(
        withoutNames(entries[1]["changes"]) == [["fruit": "kiwi", "before": 10, "after": 13]])
      #expect(entries[2]["juice"] == "banana-juice")
      #expect(entries[2]["outcome"] == "done")
      #expect(entries[2]["text"]?.string?.hasPrefix("airport: ") == true, "\(entries[2])")
      #expect(entries.allSatisfy { $0["time"]?.string?.hasSuffix("Z") == true })

      let limited = try expectJSON(try await client.get("/api/v1/history?limit=1"), status: 200)
      #expect(limited["entries"]?.array?.count == 1)
      #expect(limited["entries"]?[0]?["shop"] == "downtown")
      let airport = try expectJSON(
        try await client.get("/api/v1/history?shop=airport"), status: 200)
      #expect(airport["entries"]?.array?.count == 2)
      let future = try expectJSON(
        try await client.get("/api/v1/history?since=2999-01-01T00:00:00Z"), status: 200)
      #expect(future["entries"] == [])
    }

    @Test func stringsGiveEveryKioskWordInTheLanguageAsked() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let korean = try expectJSON(try await client.get("/api/v1/strings?lang=ko"), status: 200)
      #expect(korean["language"] == "ko")
      let languages = try #require(korean["languages"]?.array)
      #expect(languages.contains("en") && languages.contains("ko"), "\(korean)")
      let strings = try #require(korean["strings"]?.object)
      #expect(!strings.isEmpty)
      #expect(strings.keys.allSatisfy { $0.hasPrefix("kiosk.") }, "\(strings.keys.sorted())")
      #expect(strings.values.allSatisfy { $0.string != nil })
      let english = try expectJSON(try await client.get("/api/v1/strings?lang=en"), status: 200)
      #expect(english["language"] == "en")
      #expect(english["strings"]?.object?.keys.sorted() == strings.keys.sorted())
      #expect(english["strings"] != korean["strings"])
    }

    @Test func healthIsOKWhileTheStoreAnswers() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let health = try await server.client().get("/healthz")
      #expect(try expectJSON(health, status: 200) == ["status": "ok", "menu": ["version": 0]])
    }

    @Test func metricsCountOrdersStockRequestsAndStreams() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      _ = try await client.order("banana-juice")
      _ = try await client.order("strawberry-juice")
      let response = try await client.get("/metrics")
      #expect(response.status == 200, "\(response)")
      #expect(response.mediaType == "text/plain", "\(response)")
      #expect(response.header("Content-Type")?.contains("version=0.0.4") == true, "\(response)")
      #expect(response.header("X-Content-Type-Options") == "nosniff")
      let text = response.text
      for name in [
        "juice_maker_orders_total", "juice_maker_stock_level", "juice_maker_http_requests_total",
        "juice_maker_http_request_duration_seconds_bucket", "juice_maker_event_streams",
      ] {
        #expect(text.contains(name), "no \(name) in\n\(text)")
      }
      let lines = text.split(separator: "\n")
      #expect(
        lines.contains {
          $0.hasPrefix("juice_maker_orders_total{") && $0.contains("juice=\"banana-juice\"")
            && !$0.contains("outcome=\"refused\"") && $0.hasSuffix(" 1")
        }, "\(text)")
      #expect(
        lines.contains {
          $0.hasPrefix("juice_maker_orders_total{") && $0.contains("juice=\"strawberry-juice\"")
            && $0.contains("outcome=\"refused\"") && $0.hasSuffix(" 1")
        }, "\(text)")
      #expect(
        lines.contains {
          $0.hasPrefix("juice_maker_stock_level{") && $0.contains("fruit=\"banana\"")
            && $0.hasSuffix(" 8")
        }, "\(text)")
    }

    /// Metrics label requests by route, not by the path asked: a client inventing paths
    /// cannot grow them without bound.
    @Test func metricsLabelRoutesNotTheInventedPaths() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      for number in 0..<20 {
        _ = try await client.get("/invented-\(number)")
        _ = try await client.post("/api/v1/stock/madeup\(number)", json: ["add": 1])
      }
      let metrics = try await client.get("/metrics").text
      #expect(!metrics.contains("invented-"), "\(metrics)")
      #expect(!metrics.contains("madeup"), "\(metrics)")
      #expect(metrics.contains("route=\"/api/v1/stock/{fruit}\""), "\(metrics)")
    }

    @Test func theKioskPageIsServedWithAStrictContentSecurityPolicy() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let page = try await server.client().get("/")
      #expect(page.status == 200, "\(page)")
      #expect(page.mediaType == "text/html", "\(page)")
      #expect(page.header("X-Content-Type-Options") == "nosniff")
      let policy = try #require(page.header("Content-Security-Policy"), "\(page)")
      // default-src 'self' or stricter, and no inline script or style anywhere.
      let directives = Dictionary(
        policy.split(separator: ";").compactMap { directive -> (String, String)? in
          let words = directive.split(separator: " ", maxSplits: 1).map(String.init)
          return words.first.map { ($0, words.count > 1 ? words[1] : "") }
        }, uniquingKeysWith: { first, _ in first })
      #expect(["'self'", "'none'"].contains(directives["default-src"]), "\(policy)")
      #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(policy)")
      #expect(directives["script-src"].map { !$0.contains("*") } ?? true, "\(policy)")
      #expect(!page.text.contains("<script>"), "inline script in the page")
    }

    @Test func theOpenAPIDocumentIsServed() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let document = try expectJSON(
        try await server.client().get("/api/v1/openapi.json"), status: 200)
      #expect(document["openapi"]?.string?.hasPrefix("3.1") == true, "\(document)")
      #expect(document["paths"]?.object?.isEmpty == false)
    }

    @Test func memoryServesTheShippedStockAndKeepsNothing() async throws {
      let sandbox = try Sandbox(.absent)
      let first = try await ServeProcess(["--memory"], in: sandbox, store: "")
      let order = try await first.client().order("banana-juice")
      #expect(try expectJSON(order, status: 201)["levels"]?[0]?["level"] == 8)
      #expect(try await first.terminate() == 0)
      let second = try await ServeProcess(["--memory"], in: sandbox, store: "")
      let stock = try expectJSON(try await second.client().get("/api/v1/stock"), status: 200)
      #expect(stock["fruits"]?.array?.first { $0["id"] == "banana" }?["level"] == 10)
      #expect(!FileManager.default.fileExists(atPath: sandbox.store))
    }

    @Test func aNamedStoreThatDoesNotExistIsRefused() async throws {
      let sandbox = try Sandbox(.absent)
      let outcome = try await ServeProcess.refusal([], in: sandbox)
      #expect(outcome.status != 0 && outcome.status < 128, "\(outcome)")
      #expect(outcome.stdout.isEmpty, "\(outcome)")
    }

    @Test func aFileThatIsNotAStoreIsRefusedAsTheCLIRefusesIt() async throws {
      let sandbox = try Sandbox(.absent)
      try Data("not a store\n".utf8).write(to: URL(fileURLWithPath: sandbox.store))
      let served = try await ServeProcess.refusal([], in: sandbox)
      let stock = try await sandbox.run(["stock"])
      #expect(served.status == stock.status && served.status != 0, "\(served)")
      #expect(served.stderr == stock.stderr, "\(served)")
      #expect(served.stdout.isEmpty)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: sandbox.store)) == Data("not a store\n".utf8))
    }

    @Test func historyShowsFiftyEntriesUnlessLimitedAndRefusesABadLimit() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      for _ in 0..<60 {
        _ = try await client.post("/api/v1/stock/kiwi", json: ["add": 1])
      }
      let standard = try expectJSON(try await client.get("/api/v1/history"), status: 200)
      #expect(standard["entries"]?.array?.count == 50)
      #expect(standard["entries"]?[0]?["sequence"] == 60)
      let all = try expectJSON(try await client.get("/api/v1/history?limit=1000"), status: 200)
      #expect(all["entries"]?.array?.count == 60)
      for limit in ["abc", "-1", "1.5"] {
        let response = try await client.get("/api/v1/history?limit=\(limit)")
        #expect((400..<500).contains(response.status), "limit=\(limit): \(response)")
        #expect(response.mediaType == "application/problem+json", "limit=\(limit): \(response)")
      }
    }

    @Test func ipv6LoopbackIsServed() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(["--listen", "[::1]:0"], in: sandbox)
      #expect(server.originLine == "http://[::1]:\(server.port)/")
      let connection = try server.connect()
      let response = try await connection.exchange("GET", "/healthz", headers: [("Host", "[::1]")])
      #expect(response.status == 200, "\(response)")
    }
  }
}
