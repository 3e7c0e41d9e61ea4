import Foundation
import JuiceMakerHTTP
import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// The HTTP API's answers, in process, over a store in memory that journals every order:
/// what each route answers and that a retried request is answered from its journal
/// entry. The tests of the built server cover the network.
struct ShopAPITests {
  struct Server {
    let api: ShopAPI
    let store: FruitStore

    func send(
      _ method: String, _ path: String, body: String? = nil, headers: [HTTPHeader] = [],
      query: [(name: String, value: String)] = []
    ) -> HTTPResponse {
      var headers = headers
      if body != nil { headers.append(HTTPHeader("content-type", "application/json")) }
      let request = HTTPRequest(
        method: method, path: path, query: query, headers: headers,
        body: body.map { Array($0.utf8) } ?? [])
      guard case .response(let response) = api.respond(to: request) else {
        Issue.record("a stream where a response was expected")
        return HTTPResponse(status: 0)
      }
      return response
    }
  }

  static func server(storage: (any StockStorage)? = nil) throws -> Server {
    let catalog = try Catalog.load(from: Paths.recipes)
    let storage =
      storage
      ?? InMemoryStockStorage(
        fruits: catalog.fruits.map(\.id), levels: catalog.fruits.map(\.initialStock),
        journalsOrders: true)
    let store = FruitStore(storage: storage)
    let strings = try StringCatalog(directory: Paths.localization)
    let api = try ShopAPI(
      shop: JuiceMaker(name: "airport", catalog: catalog, store: store), storage: storage,
      strings: strings, defaultTexts: Texts(localizer: strings.localizer(for: "en")),
      access: AccessControl(tokenFile: nil, allowedOrigins: []))
    return Server(api: api, store: store)
  }

  private static func json(_ response: HTTPResponse) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
  }

  @Test func anOrderSentAgainWithItsKeyGetsTheSameAnswerAndIsMadeOnce() throws {
    let server = try Self.server()
    let key = [HTTPHeader("idempotency-key", "till-4-0187")]
    let first = server.send("POST", "/api/v1/orders", body: #"{"juice":"딸바쥬스"}"#, headers: key)
    let again = server.send(
      "POST", "/api/v1/orders", body: #"{"juice":"strawberry-banana-juice"}"#, headers: key)
    #expect(first.status == 201)
    #expect(again.status == 201)
    #expect(again.body == first.body)
    #expect(again.header("Idempotent-Replayed") == "true")
    #expect(first.header("Idempotent-Replayed") == nil)
    #expect(try server.store.stock(of: "strawberry") == 0, "withdrawn once")
    let other = server.send(
      "POST", "/api/v1/orders", body: #"{"juice":"kiwi-juice"}"#, headers: key)
    #expect(other.status == 422)
    #expect(try Self.json(other)["code"] as? String == "requestIDReused")
    #expect(try Self.json(other)["key"] as? String == "till-4-0187")
    #expect(try server.store.stock(of: "kiwi") == 10, "nothing done")
  }

  @Test func aRefusalListsEveryShortageAndIsGivenAgainTheSameAfterARestock() throws {
    let server = try Self.server()
    let key = [HTTPHeader("idempotency-key", "k-1")]
    let body = #"{"juice":"strawberry-juice","count":2}"#
    let refused = server.send("POST", "/api/v1/orders", body: body, headers: key)
    #expect(refused.status == 409)
    #expect(refused.header("Content-Type") == "application/problem+json")
    let problem = try Self.json(refused)
    #expect(problem["code"] as? String == "outOfStock")
    let shortages = try #require(problem["shortages"] as? [[String: Any]])
    #expect(shortages.map { $0["fruit"] as? String } == ["strawberry"])
    #expect(shortages.first?["needed"] as? Int == 32)
    try server.store.add(100, of: "strawberry")
    #expect(server.send("POST", "/api/v1/orders", body: body, headers: key).body == refused.body)
  }

  @Test func aStockEditIsACompareAndSetWhenItSaysWhatItExpects() throws {
    let server = try Self.server()
    let set = server.send("POST", "/api/v1/stock/kiwi", body: #"{"set":12,"expected":10}"#)
    #expect(set.status == 200)
    #expect(try Self.json(set)["before"] as? Int == 10)
    #expect(try Self.json(set)["after"] as? Int == 12)
    let stale = server.send("POST", "/api/v1/stock/키위", body: #"{"set":3,"expected":10}"#)
    #expect(stale.status == 409)
    #expect(try Self.json(stale)["code"] as? String == "stockChanged")
    #expect(try Self.json(stale)["actual"] as? Int == 12)
    #expect(try server.store.stock(of: "kiwi") == 12, "not overwritten")
    let remove = server.send("POST", "/api/v1/stock/kiwi", body: #"{"remove":20}"#)
    #expect(remove.status == 409)
    #expect(try Self.json(remove)["code"] as? String == "outOfStock")
  }

  @Test(arguments: [
    (#"{"juice":"kiwi-juice","cuont":2}"#, 422, "invalidBody"),
    (#"{"count":2}"#, 422, "invalidBody"),
    (#"{"juice":7}"#, 422, "invalidBody"),
    (#"{"juice":"kiwi-juice","count":"2"}"#, 422, "invalidBody"),
    (#"{"juice":"kiwi-juice","count":0}"#, 422, "notPositive"),
    (#"{"juice":"kiwi-juice","count":1.5}"#, 422, "notWholeNumber"),
    (#"{"juice":"kiwi-juice","count":99999999999999999999}"#, 422, "tooLarge"),
    (#"{"juice":"dragonfruit-juice"}"#, 404, "unknownJuice"),
    (#"["kiwi-juice"]"#, 422, "invalidBody"),
    (#"{"juice":"kiwi-juice""#, 400, "malformedJSON"),
  ])
  func aBadOrderIsOneProblemAndChangesNothing(body: String, status: Int, code: String) throws {
    let server = try Self.server()
    let response = server.send("POST", "/api/v1/orders", body: body)
    #expect(response.status == status)
    #expect(try Self.json(response)["code"] as? String == code)
    #expect(try server.store.levels() == [10, 10, 10, 10, 10])
    #expect(try server.store.journal().isEmpty)
  }

  @Test(arguments: [
    (#"{"add":1,"remove":1}"#, "remove"), (#"{"add":1,"expected":1}"#, "expected"),
    ("{}", "add"), (#"{"set":1,"extra":true}"#, "extra"),
  ])
  func aStockEditTakesOneActionAndNamesTheFieldItRefuses(body: String, field: String) throws {
    let server = try Self.server()
    let response = server.send("POST", "/api/v1/stock/kiwi", body: body)
    #expect(response.status == 422)
    #expect(try Self.json(response)["field"] as? String == field)
  }

  @Test func theLanguageComesFromTheQueryThenAcceptLanguageThenTheServer() throws {
    let server = try Self.server()
    let korean = server.send("GET", "/api/v1/stock", query: [("lang", "ko")])
    #expect(korean.header("Content-Language") == "ko")
    let header = server.send(
      "GET", "/api/v1/stock", headers: [HTTPHeader("accept-language", "fr, ko;q=0.8, en;q=0.5")])
    #expect(header.header("Content-Language") == "ko")
    let fruits = try #require(try Self.json(header)["fruits"] as? [[String: Any]])
    #expect(fruits.first?["name"] as? String == "딸기")
    #expect(server.send("GET", "/api/v1/stock").header("Content-Language") == "en")
  }

  @Test func aLowEventSaysWhichFruitCrossedItsMinimum() throws {
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: "en"))
    let event = EventHub.low(
      StockChange.Level(fruit: "kiwi", before: 4, after: 1),
      limits: StockLimits(minimum: 3, par: 10), sequence: 7, texts)
    #expect(
      String(decoding: event, as: UTF8.self)
        == "event: low\ndata: {\"sequence\":7,\"fruit\":\"kiwi\",\"name\":\"kiwi\",\"level\":1,\"min\":3,\"par\":10}\n\n"
    )
  }

  @Test func aStreamResumedAfterASequenceGetsWhatItMissedThenLive() throws {
    let server = try Self.server()
    _ = server.send("POST", "/api/v1/orders", body: #"{"juice":"kiwi-juice"}"#)
    _ = server.send("POST", "/api/v1/orders", body: #"{"juice":"mango-juice"}"#)
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: "ko"))
    let stream = try server.api.events.open(after: 1, texts: texts)
    let missed = try #require(try server.store.journal().first)
    #expect(missed.sequence == 2)
    let expected =
      Array("retry: 1000\n\n".utf8) + EventHub.event(missed, texts)
      + EventHub.named("live", sequence: 2)
    #expect(stream.pendingCount == expected.count)
    #expect(String(decoding: EventHub.event(missed, texts), as: UTF8.self).contains("망고쥬스"))
    #expect(server.api.events.count == 1)
    let fresh = try server.api.events.open(after: nil, texts: texts)
    #expect(
      fresh.pendingCount
        == ("retry: 1000\n\n".utf8.count + EventHub.named("live", sequence: 2).count),
      "nothing from before it opened")
  }
}

extension ShopAPITests {
  @Test func theStockMarksLowFruitsAndMetricsCountEachCrossingOnce() throws {
    let server = try Self.server()
    try server.store.setLimits(StockLimits(minimum: 3, par: 10), of: "kiwi")
    try server.api.board.refresh()
    // 10 → 7 → 4 → 1 → refused: the third order crosses the minimum, once.
    for _ in 0..<4 {
      _ = server.send("POST", "/api/v1/orders", body: #"{"juice":"kiwi-juice"}"#)
    }
    let stock = try Self.json(server.send("GET", "/api/v1/stock"))
    let kiwi = try #require(
      (stock["fruits"] as? [[String: Any]])?.first { $0["id"] as? String == "kiwi" })
    #expect(kiwi["low"] as? Bool == true && kiwi["min"] as? Int == 3 && kiwi["par"] as? Int == 10)
    let mango = try #require(
      (stock["fruits"] as? [[String: Any]])?.first { $0["id"] as? String == "mango" })
    #expect(mango["low"] as? Bool == false && mango["min"] == nil)
    let metrics = String(decoding: server.send("GET", "/metrics").body, as: UTF8.self)
    #expect(
      metrics.contains(#"juice_maker_low_stock_crossings_total{fruit="kiwi"} 1"#), "\(metrics)")
    #expect(metrics.contains(#"juice_maker_stock_low{fruit="kiwi"} 1"#))
  }
}
