import Foundation
import Testing

extension HTTPTests {
  /// `/api/v1/openapi.json` describes what the server really does: every route it lists
  /// answers, and every response, problems included, fits the schema documented for its
  /// status and content type.
  @Suite struct OpenAPITests {
    /// One request and the route template it exercises.
    struct Exchange: Sendable, CustomTestStringConvertible {
      let method: String
      let template: String
      let path: String
      var headers: [(String, String)] = []
      var body: String?
      /// The token sent as a bearer token, if any.
      var token: String? = ServeFixtures.staffToken

      var testDescription: String { "\(method) \(path)" }
    }

    /// Requests that between them give every kind of response of every route.
    static let exchanges: [Exchange] = {
      let json = ("Content-Type", "application/json")
      let counter = ServeFixtures.counterToken
      return [
        Exchange(method: "GET", template: "/api/v1/menu", path: "/api/v1/menu"),
        Exchange(method: "GET", template: "/api/v1/menu", path: "/api/v1/menu?lang=ko"),
        Exchange(method: "GET", template: "/api/v1/menu", path: "/api/v1/menu", token: nil),
        Exchange(method: "DELETE", template: "/api/v1/menu", path: "/api/v1/menu"),
        Exchange(method: "GET", template: "/api/v1/stock", path: "/api/v1/stock"),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":"banana-juice","count":2}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":"strawberry-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":"nojuice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":7}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":"banana-juice","count":0}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders",
          headers: [json, ("Idempotency-Key", "openapi-1")], body: #"{"juice":"kiwi-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders",
          headers: [json, ("Idempotency-Key", "openapi-1")], body: #"{"juice":"kiwi-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders",
          headers: [json, ("Idempotency-Key", "openapi-1")], body: #"{"juice":"mango-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders",
          headers: [json, ("Idempotency-Key", String(repeating: "k", count: 200))],
          body: #"{"juice":"mango-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders",
          headers: [("Content-Type", "text/plain")], body: #"{"juice":"mango-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders", headers: [json],
          body: #"{"juice":"mango-juice"}"# + String(repeating: " ", count: 17 * 1024)),
        Exchange(
          method: "POST", template: "/api/v1/orders", path: "/api/v1/orders",
          headers: [json, ("Origin", "http://evil.example")], body: #"{"juice":"mango-juice"}"#),
        Exchange(
          method: "POST", template: "/api/v1/stock/{fruit}", path: "/api/v1/stock/kiwi",
          headers: [json], body: #"{"add":2}"#),
        Exchange(
          method: "POST", template: "/api/v1/stock/{fruit}", path: "/api/v1/stock/kiwi",
          headers: [json], body: #"{"set":1,"expected":99}"#),
        Exchange(
          method: "POST", template: "/api/v1/stock/{fruit}", path: "/api/v1/stock/kiwi",
          headers: [json], body: #"{"remove":999}"#),
        Exchange(
          method: "POST", template: "/api/v1/stock/{fruit}", path: "/api/v1/stock/nofruit",
          headers: [json], body: #"{"add":1}"#),
        Exchange(
          method: "POST", template: "/api/v1/stock/{fruit}", path: "/api/v1/stock/kiwi",
          headers: [json], body: #"{"add":1}"#, token: counter),
        Exchange(
          method: "POST", template: "/api/v1/stock/{fruit}", path: "/api/v1/stock/kiwi",
          headers: [json], body: #"{"add":1,"set":2}"#),
        Exchange(method: "GET", template: "/api/v1/history", path: "/api/v1/history?limit=5"),
        Exchange(
          method: "GET", template: "/api/v1/history", path: "/api/v1/history", token: counter),
        Exchange(method: "GET", template: "/api/v1/strings", path: "/api/v1/strings?lang=ko"),
        Exchange(
          method: "POST", template: "/api/v1/session", path: "/api/v1/session", headers: [json],
          body: #"{"token":"\#(ServeFixtures.counterToken)"}"#, token: nil),
        Exchange(
          method: "POST", template: "/api/v1/session", path: "/api/v1/session", headers: [json],
          body: #"{"token":"not-a-token-of-this-shop-000"}"#, token: nil),
        Exchange(
          method: "POST", template: "/api/v1/session", path: "/api/v1/session", headers: [json],
          body: #"{"tok":1}"#, token: nil),
        Exchange(
          method: "DELETE", template: "/api/v1/session", path: "/api/v1/session", headers: [json],
          body: "{}"),
        Exchange(method: "GET", template: "/api/v1/openapi.json", path: "/api/v1/openapi.json"),
        Exchange(method: "GET", template: "/healthz", path: "/healthz", token: nil),
        Exchange(method: "GET", template: "/metrics", path: "/metrics"),
        Exchange(method: "GET", template: "/metrics", path: "/metrics", token: nil),
      ]
    }()

    /// A server with the fixture's tokens, its document, and a validator over it.
    static func start(in sandbox: Sandbox) async throws -> (ServeProcess, OpenAPIValidator) {
      let tokens = try ServeFixtures.tokenFile(in: sandbox)
      let server = try await ServeProcess(["--token-file", tokens], in: sandbox)
      let response = try await server.connect().exchange("GET", "/api/v1/openapi.json")
      let document = try expectJSON(response, status: 200)
      return (server, OpenAPIValidator(document: document))
    }

    /// Checks one response against the document: its status and content type are
    /// documented for the route, and a JSON body fits their schema.
    static func check(
      _ response: ServerResponse, method: String, template: String, validator: OpenAPIValidator,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let operation = validator.document["paths"]?[template]?[method.lowercased()]
      guard let operation else {
        // A method the route does not have: the document lists the route's other methods.
        #expect(response.status == 405, "\(response)", sourceLocation: sourceLocation)
        return
      }
      let responses = operation["responses"]?.object ?? [:]
      guard let documented = responses[String(response.status)] else {
        let listed = responses.keys.sorted()
        Issue.record(
          Comment(
            rawValue: "\(method) \(template) answered \(response.status), which the document does"
              + " not list (it lists \(listed)):\n\(response)"),
          sourceLocation: sourceLocation)
        return
      }
      let content = (try? validator.resolve(documented))?["content"]?.object ?? [:]
      guard let mediaType = response.mediaType, !response.body.isEmpty else {
        #expect(
          content.isEmpty, "\(method) \(template) \(response.status) has no body: \(response)",
          sourceLocation: sourceLocation)
        return
      }
      guard content[mediaType] != nil else {
        Issue.record(
          "\(method) \(template) \(response.status) sent \(mediaType), documented \(content.keys.sorted()):\n\(response)",
          sourceLocation: sourceLocation)
        return
      }
      guard mediaType.hasSuffix("json") else { return }
      do {
        let schema = try validator.responseSchema(
          method: method, path: template, status: response.status, mediaType: mediaType)
        let body = try JSONValue(parsing: response.body)
        let errors = validator.errors(body, against: schema)
        #expect(
          errors.isEmpty,
          "\(method) \(template) \(response.status) does not fit its schema:\n\(errors.joined(separator: "\n"))\n\(response)",
          sourceLocation: sourceLocation)
      } catch {
        Issue.record("\(error)\n\(response)", sourceLocation: sourceLocation)
      }
    }

    static func send(_ exchange: Exchange, to server: ServeProcess) async throws -> ServerResponse {
      var headers = exchange.headers
      if let token = exchange.token { headers.append(("Authorization", "Bearer \(token)")) }
      return try await server.connect().exchange(
        exchange.method, exchange.path, headers: headers, body: exchange.body.map { Array($0.utf8) }
      )
    }

    @Test func theDocumentIsOpenAPI31AndUsesOnlyCheckedKeywords() async throws {
      let sandbox = try Sandbox()
      let (_, validator) = try await Self.start(in: sandbox)
      #expect(validator.document["openapi"]?.string?.hasPrefix("3.1.") == true)
      #expect(validator.document["info"]?["title"]?.string != nil)
      #expect(validator.unknownKeywords().isEmpty, "\(validator.unknownKeywords().sorted())")
    }

    @Test func theDocumentListsEveryRouteOfTheContract() async throws {
      let sandbox = try Sandbox()
      let (_, validator) = try await Self.start(in: sandbox)
      let paths = try #require(validator.document["paths"]?.object)
      let contract = [
        ("get", "/api/v1/menu"), ("get", "/api/v1/stock"), ("post", "/api/v1/orders"),
        ("post", "/api/v1/stock/{fruit}"), ("get", "/api/v1/history"), ("get", "/api/v1/events"),
        ("get", "/api/v1/strings"), ("post", "/api/v1/session"), ("delete", "/api/v1/session"),
        ("get", "/api/v1/openapi.json"), ("get", "/metrics"), ("get", "/healthz"),
      ]
      for (method, path) in contract {
        #expect(paths[path]?[method] != nil, "\(method.uppercased()) \(path) is not documented")
      }
    }

    @Test(arguments: exchanges)
    func aRealResponseFitsItsDocumentedSchema(exchange: Exchange) async throws {
      let sandbox = try Sandbox()
      let (server, validator) = try await Self.start(in: sandbox)
      // The replay and the reused key need the key's first use.
      if exchange.headers.contains(where: { $0.0 == "Idempotency-Key" && $0.1 == "openapi-1" }) {
        _ = try await Self.send(Self.exchanges[11], to: server)
      }
      let response = try await Self.send(exchange, to: server)
      Self.check(
        response, method: exchange.method, template: exchange.template, validator: validator)
    }

    @Test func everyDocumentedRouteAnswers() async throws {
      let sandbox = try Sandbox()
      let (server, validator) = try await Self.start(in: sandbox)
      let paths = try #require(validator.document["paths"]?.object)
      let bodies = [
        "/api/v1/orders": #"{"juice":"banana-juice"}"#, "/api/v1/stock/{fruit}": #"{"add":1}"#,
        "/api/v1/session": #"{"token":"\#(ServeFixtures.staffToken)"}"#,
      ]
      for (template, operations) in paths.sorted(by: { $0.key < $1.key }) {
        let path = template.replacingOccurrences(of: "{fruit}", with: "kiwi")
        for method in (operations.object ?? [:]).keys.sorted()
        where ["get", "post", "delete", "put", "patch"].contains(method) {
          let upper = method.uppercased()
          if template == "/api/v1/events" {
            let stream = try await EventStreamReader(
              server, headers: [("Authorization", "Bearer \(ServeFixtures.staffToken)")])
            #expect(stream.head.status == 200, "\(stream.head)")
            #expect(stream.head.mediaType == "text/event-stream")
            continue
          }
          var headers = [("Authorization", "Bearer \(ServeFixtures.staffToken)")]
          var body: [UInt8]?
          if upper != "GET" {
            headers.append(("Content-Type", "application/json"))
            body = Array((bodies[template] ?? "{}").utf8)
          }
          let response = try await server.connect().exchange(
            upper, path, headers: headers, body: body)
          #expect(
            (200..<300).contains(response.status), "\(upper) \(path) does not answer: \(response)")
          Self.check(response, method: upper, template: template, validator: validator)
        }
      }
    }

    @Test func eventStreamEntriesFitTheEntrySchema() async throws {
      let sandbox = try Sandbox()
      let (server, validator) = try await Self.start(in: sandbox)
      let stream = try await EventStreamReader(
        server, path: "/api/v1/events?after=0",
        headers: [("Authorization", "Bearer \(ServeFixtures.staffToken)")])
      let client = server.client(token: ServeFixtures.staffToken)
      _ = try await client.order("banana-juice")
      _ = try await client.order("strawberry-juice")
      _ = try await client.post("/api/v1/stock/kiwi", json: ["add": 2])
      _ = try await client.post("/api/v1/stock/kiwi", json: ["set": 1, "expected": 3])
      let entry = try #require(
        validator.document["components"]?["schemas"]?["Entry"], "no Entry schema")
      var entries = 0
      while entries < 4 {
        let event = try #require(try await stream.nextEvent(), "\(stream.received)")
        if event.event == "live" { continue }
        entries += 1
        let errors = validator.errors(try event.json(), against: entry)
        #expect(errors.isEmpty, "\(errors)\n\(event)")
      }
      let history = try await client.get("/api/v1/history")
      Self.check(history, method: "GET", template: "/api/v1/history", validator: validator)
    }

    @Test(arguments: ["/api/v1/undocumented", "/api/v1/orders/1", "/api/v1", "/api/v1/menus"])
    func anUndocumentedPathIsNotFound(path: String) async throws {
      let sandbox = try Sandbox()
      let (server, validator) = try await Self.start(in: sandbox)
      #expect(validator.document["paths"]?[path] == nil)
      let response = try await server.client(token: ServeFixtures.staffToken).get(path)
      try expectProblem(response, status: 404, code: "notFound")
    }

    @Test func theValidatorRejectsWhatTheSchemaForbids() throws {
      let document: JSONValue = [
        "components": [
          "schemas": [
            "Level": [
              "type": "object", "additionalProperties": false, "required": ["fruit", "level"],
              "properties": [
                "fruit": ["type": "string"], "level": ["type": "integer"],
                "note": ["type": ["string", "null"]],
                "kind": ["enum": ["a", "b"]],
              ],
            ],
            "Either": ["oneOf": [["type": "string"], ["type": "integer"]]],
          ]
        ]
      ]
      let validator = OpenAPIValidator(document: document)
      let level: JSONValue = ["$ref": "#/components/schemas/Level"]
      #expect(validator.errors(["fruit": "kiwi", "level": 3, "note": nil], against: level).isEmpty)
      #expect(validator.errors(["fruit": "kiwi"], against: level).count == 1)
      #expect(validator.errors(["fruit": "kiwi", "level": "3"], against: level).count == 1)
      #expect(
        validator.errors(["fruit": "kiwi", "level": 3, "extra": 1], against: level).count == 1)
      #expect(
        validator.errors(["fruit": "kiwi", "level": 3, "kind": "c"], against: level).count == 1)
      #expect(validator.errors([["fruit": "kiwi"]], against: ["items": level]).count == 1)
      let either: JSONValue = ["$ref": "#/components/schemas/Either"]
      #expect(validator.errors(3, against: either).isEmpty)
      #expect(validator.errors(true, against: either).count == 1)
    }
  }
}
