import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HTTPTests {
  /// Every error of api.md's table is an RFC 9457 problem with its status and code, and
  /// every response carries the API's header fields, in the language asked.
  @Suite struct ProblemTests {
    /// A request with a well-formed JSON body that the API refuses, and how.
    struct Refusal: Sendable, CustomTestStringConvertible {
      let path: String
      let body: JSONValue
      let status: Int
      let code: String
      /// A word the problem must name, such as the field that is wrong.
      let names: String?

      var testDescription: String { "POST \(path) \(body) → \(status) \(code)" }
    }

    static let refusals: [Refusal] = [
      Refusal(
        path: "/api/v1/orders", body: ["juice": "nojuice"], status: 404, code: "unknownJuice",
        names: "nojuice"),
      Refusal(
        path: "/api/v1/stock/nofruit", body: ["add": 1], status: 404, code: "unknownFruit",
        names: "nofruit"),
      Refusal(
        path: "/api/v1/orders", body: ["juice": 5], status: 422, code: "invalidBody", names: "juice"
      ),
      Refusal(path: "/api/v1/orders", body: [:], status: 422, code: "invalidBody", names: "juice"),
      Refusal(
        path: "/api/v1/orders", body: ["juice": "banana-juice", "count": "2"], status: 422,
        code: "invalidBody", names: "count"),
      Refusal(
        path: "/api/v1/orders", body: ["juice": "banana-juice", "count": .number(1.5)], status: 422,
        code: "notWholeNumber", names: nil),
      Refusal(
        path: "/api/v1/orders", body: ["banana-juice"], status: 422, code: "invalidBody", names: nil
      ),
      Refusal(
        path: "/api/v1/orders", body: ["juice": "banana-juice", "count": 0], status: 422,
        code: "notPositive", names: nil),
      Refusal(
        path: "/api/v1/orders", body: ["juice": "banana-juice", "count": .integer(Int.max)],
        status: 422,
        code: "tooLarge", names: nil),
      Refusal(path: "/api/v1/stock/kiwi", body: [:], status: 422, code: "invalidBody", names: nil),
      Refusal(
        path: "/api/v1/stock/kiwi", body: ["add": 1, "remove": 1], status: 422, code: "invalidBody",
        names: nil),
      Refusal(
        path: "/api/v1/stock/kiwi", body: ["expected": 10], status: 422, code: "invalidBody",
        names: nil),
      Refusal(
        path: "/api/v1/stock/kiwi", body: ["add": "3"], status: 422, code: "invalidBody",
        names: "add"),
      Refusal(
        path: "/api/v1/stock/kiwi", body: ["add": 0], status: 422, code: "notPositive", names: nil),
      Refusal(
        path: "/api/v1/stock/kiwi", body: ["set": -1], status: 422, code: "negative", names: nil),
      Refusal(
        path: "/api/v1/stock/kiwi", body: ["add": .integer(Int.max)], status: 422, code: "overflow",
        names: nil),
    ]

    @Test(arguments: refusals)
    func aRefusedRequestIsAProblemAndChangesNothing(refusal: Refusal) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().post(refusal.path, json: refusal.body)
      let problem = try expectProblem(response, status: refusal.status, code: refusal.code)
      if let names = refusal.names {
        #expect(
          problem.description.contains(names), "the problem does not name \(names): \(problem)")
      }
      #expect(try await sandbox.stock() == freshStock)
      #expect(try await sandbox.history().isEmpty)
    }

    @Test(arguments: ["/api/v1/nope", "/api/v2/menu", "/api/v1/menu/extra", "/api/v1/stock/kiwi/x"])
    func anUnknownPathIsNotFound(path: String) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      try expectProblem(try await server.client().get(path), status: 404, code: "notFound")
    }

    @Test func anUnknownPathOutsideTheAPIIsNotFoundAndNotSniffed() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().get("/nothing-here")
      #expect(response.status == 404, "\(response)")
      #expect(response.header("X-Content-Type-Options") == "nosniff", "\(response)")
    }

    @Test(arguments: [
      ("DELETE", "/api/v1/menu", "GET"), ("POST", "/api/v1/menu", "GET"),
      ("PUT", "/api/v1/orders", "POST"), ("GET", "/api/v1/orders", "POST"),
      ("DELETE", "/api/v1/stock", "GET"), ("GET", "/api/v1/stock/kiwi", "POST"),
      ("POST", "/api/v1/history", "GET"), ("POST", "/api/v1/events", "GET"),
      ("PATCH", "/api/v1/strings", "GET"), ("GET", "/api/v1/session", "POST"),
      ("POST", "/healthz", "GET"), ("POST", "/metrics", "GET"),
      ("POST", "/api/v1/openapi.json", "GET"),
    ])
    func aWrongMethodIsRefusedWithTheAllowedOnes(
      method: String, path: String, allowed: String
    ) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      let response = try await connection.exchange(
        method, path, headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
      try expectProblem(response, status: 405, code: "methodNotAllowed")
      let allow = try #require(response.header("Allow"), "\(response)")
      let methods = allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(methods.contains(allowed), "\(response)")
      #expect(!methods.contains(method), "\(response)")
    }

    @Test(arguments: [
      "{\"juice\":", "{juice: 1}", "not json", "{\"juice\":\"banana-juice\"}}", "\u{FEFF}[",
    ])
    func malformedJSONIsABadRequest(body: String) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.connect().exchange(
        "POST", "/api/v1/orders", headers: [("Content-Type", "application/json")],
        body: Array(body.utf8))
      try expectProblem(response, status: 400, code: "malformedJSON")
      #expect(try await sandbox.stock() == freshStock)
    }

    @Test func bytesThatAreNotUTF8AreMalformed() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let body: [UInt8] = Array("{\"juice\":\"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8)
      let response = try await server.connect().exchange(
        "POST", "/api/v1/orders", headers: [("Content-Type", "application/json")], body: body)
      try expectProblem(response, status: 400, code: "malformedJSON")
    }

    @Test(
      arguments: [
        ("POST", "/api/v1/orders", "text/plain"), ("POST", "/api/v1/orders", nil),
        ("POST", "/api/v1/stock/kiwi", "application/x-www-form-urlencoded"),
        ("POST", "/api/v1/session", "text/json"), ("DELETE", "/api/v1/session", "text/plain"),
      ] as [(String, String, String?)])
    func aStateChangeWithoutJSONIsAnUnsupportedMediaType(
      method: String, path: String, type: String?
    ) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let headers = type.map { [("Content-Type", $0)] } ?? []
      let response = try await server.connect().exchange(
        method, path, headers: headers, body: Array("{\"juice\":\"banana-juice\",\"add\":1}".utf8))
      try expectProblem(response, status: 415, code: "unsupportedMediaType")
      #expect(try await sandbox.stock() == freshStock)
    }

    @Test func aStateChangeWithAContentTypeButNoBodyIsRefusedWithoutHanging() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let wrongType = try await server.connect().exchange(
        "POST", "/api/v1/orders",
        headers: [("Content-Type", "text/plain"), ("Content-Length", "0")])
      try expectProblem(wrongType, status: 415, code: "unsupportedMediaType")
      let empty = try await server.connect().exchange(
        "POST", "/api/v1/orders",
        headers: [("Content-Type", "application/json"), ("Content-Length", "0")])
      #expect([400, 422].contains(empty.status), "\(empty)")
      #expect(empty.mediaType == "application/problem+json", "\(empty)")
    }

    @Test func jsonWithACharsetIsJSON() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().post(
        "/api/v1/orders", json: ["juice": "banana-juice"],
        headers: ["Content-Type": "application/json; charset=utf-8"])
      try expectJSON(response, status: 201)
    }

    @Test func aBodyOver16KiBIsTooLarge() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let padding = String(repeating: " ", count: 17 * 1024)
      let body = Array("{\"juice\":\"banana-juice\"\(padding)}".utf8)
      let connection = try server.connect()
      let response = try await connection.exchange(
        "POST", "/api/v1/orders", headers: [("Content-Type", "application/json")], body: body)
      try expectProblem(response, status: 413, code: "bodyTooLarge")
      #expect(try await sandbox.stock() == freshStock)
      // A body just under the limit is read.
      let fits = Array(
        "{\"juice\":\"banana-juice\"\(String(repeating: " ", count: 15 * 1024))}".utf8)
      let made = try await server.connect().exchange(
        "POST", "/api/v1/orders", headers: [("Content-Type", "application/json")], body: fits)
      try expectJSON(made, status: 201)
    }

    @Test func aChunkedBodyOver16KiBIsTooLarge() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      let chunk = String(repeating: " ", count: 4096)
      var body = "1a\r\n{\"juice\":\"banana-juice\"  \r\n"
      for _ in 0..<5 {
        body += String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
      }
      body += "1\r\n}\r\n0\r\n\r\n"
      let response = try await connection.exchange(
        "POST", "/api/v1/orders",
        headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")],
        body: Array(body.utf8))
      try expectProblem(response, status: 413, code: "bodyTooLarge")
      #expect(try await sandbox.stock() == freshStock)
    }

    @Test func aStoreReplacedUnderTheServerIsUnavailableAndLeftAlone() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      try expectJSON(try await client.order("banana-juice"), status: 201)
      let replacement = sandbox.path("replacement")
      try Data("not a store\n".utf8).write(to: URL(fileURLWithPath: replacement))
      // Replaced the way an editor or a restore does: a new file renamed over the path.
      try #require(rename(replacement, sandbox.store) == 0)
      for response in [
        try await client.get("/healthz"), try await client.get("/api/v1/stock"),
        try await client.order("banana-juice"),
      ] {
        let problem = try expectProblem(
          response, status: 503, code: response.json()["code"]?.string ?? "")
        #expect(
          ["storeReplaced", "storeUnavailable"].contains(problem["code"]?.string), "\(response)")
      }
      #expect(server.isRunning)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: sandbox.store)) == Data("not a store\n".utf8))
    }

    // MARK: - Header fields of every response

    @Test(arguments: [
      "/api/v1/menu", "/api/v1/stock", "/api/v1/history", "/api/v1/strings",
      "/api/v1/openapi.json", "/healthz", "/api/v1/nope",
    ])
    func everyAPIResponseIsNotSniffedAndNotStored(path: String) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let response = try await server.client().get(path)
      expectAPIHeaders(response)
      #expect(
        ["application/json", "application/problem+json"].contains(response.mediaType),
        "\(response)")
    }

    @Test func refusalsAndStateChangesCarryTheHeadersToo() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      expectAPIHeaders(try await client.order("banana-juice"))
      expectAPIHeaders(try await client.order("strawberry-juice"))
      expectAPIHeaders(try await client.post("/api/v1/stock/kiwi", json: ["add": 1]))
      expectAPIHeaders(try await client.send("DELETE", "/api/v1/menu"))
    }

    // MARK: - Language

    @Test func theServersOwnLanguageIsTheDefault() async throws {
      let sandbox = try Sandbox()
      let english = try await ServeProcess(in: sandbox)
      let problem = try expectProblem(
        try await english.connect().exchange("GET", "/api/v1/nope"), status: 404, code: "notFound")
      #expect(!isKorean(problem["detail"]?.string), "\(problem)")
      let menu = try expectJSON(
        try await english.connect().exchange("GET", "/api/v1/menu"), status: 200)
      #expect(menu["juices"]?[4]?["name"] == "Strawberry Banana Juice")

      let korean = try await ServeProcess(in: sandbox, global: ["--lang", "ko"])
      let koreanMenu = try expectJSON(
        try await korean.connect().exchange("GET", "/api/v1/menu"), status: 200)
      #expect(koreanMenu["juices"]?[4]?["name"] == "딸바쥬스")
      let refused = try await korean.client().order(
        "strawberry-juice", headers: ["Accept-Language": ""])
      let detail = try expectProblem(refused, status: 409, code: "outOfStock")["detail"]
      #expect(detail == "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 6개")

      let fromLANG = try await ServeProcess(in: sandbox, environment: ["LANG": "ko_KR.UTF-8"])
      let menuFromLANG = try expectJSON(
        try await fromLANG.connect().exchange("GET", "/api/v1/menu"), status: 200)
      #expect(menuFromLANG["juices"]?[4]?["name"] == "딸바쥬스")
    }

    @Test func acceptLanguageChoosesTheLanguage() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      let menu = try expectJSON(
        try await connection.exchange(
          "GET", "/api/v1/menu", headers: [("Accept-Language", "ko-KR,ko;q=0.9,en;q=0.5")]),
        status: 200)
      #expect(menu["juices"]?[4]?["name"] == "딸바쥬스")
      let order = try expectJSON(
        try await server.client().order("kiwi-juice", headers: ["Accept-Language": "ko"]),
        status: 201)
      #expect(order["message"] == "키위쥬스 나왔습니다! 맛있게 드세요!")
      let problem = try expectProblem(
        try await server.client().order("nojuice", headers: ["Accept-Language": "ko"]),
        status: 404, code: "unknownJuice")
      #expect(isKorean(problem["detail"]?.string), "\(problem)")
      let unknown = try expectJSON(
        try await server.connect().exchange(
          "GET", "/api/v1/menu", headers: [("Accept-Language", "tlh, fr;q=0.5")]), status: 200)
      #expect(unknown["juices"]?[4]?["name"] == "Strawberry Banana Juice")
      // Quality values order the languages, not their place in the list.
      let weighed = try expectJSON(
        try await server.connect().exchange(
          "GET", "/api/v1/menu", headers: [("Accept-Language", "en;q=0.1, ko;q=0.9")]),
        status: 200)
      #expect(weighed["juices"]?[4]?["name"] == "딸바쥬스")
    }

    @Test func langInTheQueryWinsOverAcceptLanguage() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox, global: ["--lang", "ko"])
      let connection = try server.connect()
      let menu = try expectJSON(
        try await connection.exchange(
          "GET", "/api/v1/menu?lang=en", headers: [("Accept-Language", "ko")]), status: 200)
      #expect(menu["juices"]?[4]?["name"] == "Strawberry Banana Juice")
      let problem = try expectProblem(
        try await server.client().order("nojuice", headers: ["Accept-Language": "ko"])
          .self, status: 404, code: "unknownJuice")
      #expect(isKorean(problem["detail"]?.string))
      let english = try expectProblem(
        try await server.client().post(
          "/api/v1/orders?lang=en", json: ["juice": "nojuice"], headers: ["Accept-Language": "ko"]),
        status: 404, code: "unknownJuice")
      #expect(
        english["detail"]
          == "There is no juice “nojuice” on the menu. Run juice-maker menu to see it.",
        "\(english)")
    }

    @Test func anAmbiguousNameIsAProblemListingItsCandidates() async throws {
      let sandbox = try Sandbox()
      let data = try Fixtures.ambiguous(in: sandbox)
      let store = sandbox.path("berries.sqlite")
      let created = try await sandbox.run(data + ["--store", store, "init"], useStore: false)
      try #require(created.status == 0, "\(created)")
      let server = try await ServeProcess(in: sandbox, store: store, global: data)
      let response = try await server.client().post(
        "/api/v1/stock/%EB%9D%BC%EC%A6%88%EB%B2%A0%EB%A6%AC", json: ["add": 1])
      #expect([404, 422].contains(response.status), "\(response)")
      let problem = try expectProblem(response, status: response.status, code: "ambiguousName")
      #expect(problem.description.contains("raspberry") && problem.description.contains("lime"))
    }
  }
}
