import Foundation
import Testing

extension HTTPTests {
  /// `--token-file`: bearer tokens and session cookies, the counter and staff roles, and
  /// the refusals to start that keep a shop from serving without them.
  @Suite struct AuthTests {
    typealias Tokens = ServeFixtures

    /// A server on the sandbox's store with the fixture's token file.
    static func server(in sandbox: Sandbox, _ more: [String] = []) async throws -> ServeProcess {
      let tokens = try ServeFixtures.tokenFile(in: sandbox)
      return try await ServeProcess(["--token-file", tokens] + more, in: sandbox)
    }

    static func expectUnauthorized(
      _ response: ServerResponse, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      try expectProblem(
        response, status: 401, code: "unauthorized", sourceLocation: sourceLocation)
      #expect(
        response.header("WWW-Authenticate") == #"Bearer realm="juice-maker""#, "\(response)",
        sourceLocation: sourceLocation)
    }

    @Test(arguments: [
      ("GET", "/api/v1/menu"), ("GET", "/api/v1/stock"), ("POST", "/api/v1/orders"),
      ("POST", "/api/v1/stock/kiwi"), ("GET", "/api/v1/history"), ("GET", "/api/v1/events"),
      ("GET", "/metrics"),
    ])
    func withoutATokenEveryAPIRouteIsUnauthorized(method: String, path: String) async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let body: [UInt8]? = method == "POST" ? Array(#"{"juice":"kiwi-juice","add":1}"#.utf8) : nil
      let headers = method == "POST" ? ["Content-Type": "application/json"] : [:]
      let none = try await server.client().send(method, path, headers: headers, body: body)
      try Self.expectUnauthorized(none)
      let wrong = try await server.client(token: "not-a-token-of-this-shop-000").send(
        method, path, headers: headers, body: body)
      try Self.expectUnauthorized(wrong)
      let basic = try await server.client().send(
        method, path, headers: headers.merging(["Authorization": "Basic b3duZXI6dG9rZW4="]) { $1 },
        body: body)
      try Self.expectUnauthorized(basic)
      #expect(try await sandbox.stock() == freshStock)
    }

    /// The kiosk's words are open like the page itself: the page shows its sign-in dialog
    /// in them before it has a session. (api.md lists strings under the counter role; a
    /// page that cannot read its words before signing in could not ask for the token.)
    @Test func healthTheKioskPageAndItsWordsNeedNoToken() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let health = try await server.client().get("/healthz")
      #expect(try expectJSON(health, status: 200) == ["status": "ok", "menu": ["version": 0]])
      let strings = try await server.client().get("/api/v1/strings?lang=ko")
      #expect(try expectJSON(strings, status: 200)["language"] == "ko")
      let page = try await server.client().get("/")
      #expect(page.status == 200, "\(page)")
      #expect(page.mediaType == "text/html", "\(page)")
    }

    @Test func theCounterRoleOrdersButDoesNotEditStockOrReadHistory() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let counter = server.client(token: Tokens.counterToken)
      for path in ["/api/v1/menu", "/api/v1/stock", "/api/v1/strings", "/metrics"] {
        let response = try await counter.get(path)
        #expect(response.status == 200, "\(path): \(response)")
      }
      try expectJSON(try await counter.order("banana-juice"), status: 201)
      let stream = try await EventStreamReader(
        server, headers: [("Authorization", "Bearer \(Tokens.counterToken)")])
      #expect(stream.head.status == 200, "\(stream.head)")
      try expectProblem(
        try await counter.post("/api/v1/stock/kiwi", json: ["add": 1]), status: 403,
        code: "forbidden")
      try expectProblem(try await counter.get("/api/v1/history"), status: 403, code: "forbidden")
      #expect(try await sandbox.stock() == freshStock.merging(["banana": 8]) { $1 })
    }

    @Test func theStaffRoleDoesEverything() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      for token in [Tokens.staffToken, Tokens.ownerToken] {
        let staff = server.client(token: token)
        try expectJSON(try await staff.post("/api/v1/stock/kiwi", json: ["add": 1]), status: 200)
        try expectJSON(try await staff.get("/api/v1/history"), status: 200)
        try expectJSON(try await staff.order("banana-juice"), status: 201)
        #expect(try await staff.get("/metrics").status == 200)
      }
      #expect(try await sandbox.stock()["kiwi"] == 12)
    }

    @Test func aSessionCookieStandsForTheToken() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let client = server.client()
      let signedIn = try await client.post(
        "/api/v1/session", json: ["token": .string(Tokens.staffToken)])
      #expect(signedIn.status == 204, "\(signedIn)")
      let setCookie = try #require(signedIn.header("Set-Cookie"), "\(signedIn)")
      let attributes = setCookie.split(separator: ";").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let pair = try #require(attributes.first)
      #expect(pair.hasPrefix("juice_session="), "\(setCookie)")
      #expect(pair.count > "juice_session=".count, "\(setCookie)")
      #expect(!setCookie.contains(Tokens.staffToken), "the cookie carries the token: \(setCookie)")
      #expect(attributes.contains { $0.lowercased() == "httponly" }, "\(setCookie)")
      #expect(attributes.contains { $0.lowercased() == "samesite=strict" }, "\(setCookie)")
      #expect(attributes.contains("Path=/"), "\(setCookie)")
      #expect(!attributes.contains { $0.lowercased() == "secure" }, "no TLS here: \(setCookie)")

      let history = try await client.get("/api/v1/history", headers: ["Cookie": pair])
      try expectJSON(history, status: 200)
      let edit = try await client.post(
        "/api/v1/stock/kiwi", json: ["add": 2], headers: ["Cookie": pair])
      try expectJSON(edit, status: 200)
      // EventSource cannot send Authorization: the page's stream rides on the cookie.
      let stream = try await EventStreamReader(server, headers: [("Cookie", pair)])
      #expect(stream.head.status == 200, "\(stream.head)")
      #expect(try await stream.nextBlock()?.retry == "1000", "\(stream.received)")
      stream.close()

      let signedOut = try await client.send(
        "DELETE", "/api/v1/session",
        headers: ["Cookie": pair, "Content-Type": "application/json"], body: Array("{}".utf8))
      #expect(signedOut.status == 204, "\(signedOut)")
      let cleared = try #require(signedOut.header("Set-Cookie"), "\(signedOut)")
      #expect(cleared.hasPrefix("juice_session="), "\(cleared)")
      #expect(
        cleared.contains("Max-Age=0") || cleared.lowercased().contains("expires=thu, 01 jan 1970"),
        "\(cleared)")
      // The session ends on the server too: a copy of the cookie kept elsewhere is no key.
      try Self.expectUnauthorized(
        try await client.get("/api/v1/history", headers: ["Cookie": pair]))
    }

    @Test func aCounterSessionHasTheCounterRole() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let client = server.client()
      let signedIn = try await client.post(
        "/api/v1/session", json: ["token": .string(Tokens.counterToken)])
      let cookie = try #require(
        signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init), "\(signedIn)")
      try expectJSON(try await client.get("/api/v1/menu", headers: ["Cookie": cookie]), status: 200)
      try expectProblem(
        try await client.get("/api/v1/history", headers: ["Cookie": cookie]), status: 403,
        code: "forbidden")
    }

    @Test func aWrongTokenOrAForgedCookieGetsNoSession() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let client = server.client()
      let wrong = try await client.post(
        "/api/v1/session", json: ["token": "not-a-token-of-this-shop-000"])
      try Self.expectUnauthorized(wrong)
      #expect(wrong.header("Set-Cookie") == nil, "\(wrong)")
      let forged = try await client.get(
        "/api/v1/menu", headers: ["Cookie": "juice_session=\(Tokens.staffToken)"])
      try Self.expectUnauthorized(forged)
      let guessed = try await client.get(
        "/api/v1/menu", headers: ["Cookie": "juice_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
      try Self.expectUnauthorized(guessed)
    }

    @Test func tokensNeverAppearInOutputMetricsOrErrors() async throws {
      let sandbox = try Sandbox()
      let server = try await Self.server(in: sandbox)
      let wrongToken = "wrong-secret-token-0123456789"
      var seen: [ServerResponse] = []
      seen.append(try await server.client(token: wrongToken).get("/api/v1/menu"))
      seen.append(try await server.client(token: Tokens.counterToken).get("/api/v1/history"))
      seen.append(
        try await server.client().post("/api/v1/session", json: ["token": .string(wrongToken)]))
      seen.append(
        try await server.client().get(
          "/api/v1/menu", headers: ["Cookie": "juice_session=\(Tokens.ownerToken)"]))
      seen.append(try await server.client(token: Tokens.counterToken).order("nojuice"))
      seen.append(try await server.client(token: Tokens.staffToken).get("/metrics"))
      seen.append(try await server.client(token: Tokens.staffToken).get("/api/v1/openapi.json"))
      _ = try await server.terminate()
      let secrets = [Tokens.ownerToken, Tokens.staffToken, Tokens.counterToken, wrongToken]
      for secret in secrets {
        for response in seen {
          #expect(!response.text.contains(secret), "\(secret) in \(response)")
          #expect(
            !response.headers.contains { $0.value.contains(secret) }, "\(secret) in \(response)")
        }
        #expect(!server.stdout.contains(secret), "\(secret) in stdout: \(server.stdout)")
        #expect(!server.stderr.contains(secret), "\(secret) in stderr: \(server.stderr)")
      }
    }

    // MARK: - Refusing to start

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func aTokenFileOthersCanReadIsRefused(mode: Int) async throws {
      let sandbox = try Sandbox()
      let tokens = try ServeFixtures.tokenFile(in: sandbox, mode: mode)
      let outcome = try await ServeProcess.refusal(["--token-file", tokens], in: sandbox)
      #expect(outcome.status == 64, "\(outcome)")
      #expect(outcome.stderr.contains(tokens), "\(outcome)")
      #expect(outcome.stderr.contains(String(mode, radix: 8)), "\(outcome)")
      #expect(!outcome.stderr.contains(Tokens.ownerToken), "\(outcome)")
    }

    @Test func aMissingTokenFileIsRefused() async throws {
      let sandbox = try Sandbox()
      let outcome = try await ServeProcess.refusal(
        ["--token-file", sandbox.path("no-such-file")], in: sandbox)
      #expect(outcome.status != 0 && outcome.status < 128, "\(outcome)")
      #expect(outcome.stderr.contains("no-such-file"), "\(outcome)")
    }

    @Test(arguments: [
      "short-token", "has a space in it but is long enough staff", "токен-на-кириллице-0123",
    ])
    func aTokenFileWithAnInvalidTokenIsRefused(line: String) async throws {
      let sandbox = try Sandbox()
      let tokens = try ServeFixtures.tokenFile(in: sandbox, contents: line)
      let outcome = try await ServeProcess.refusal(["--token-file", tokens], in: sandbox)
      #expect(outcome.status != 0 && outcome.status < 128, "\(outcome)")
      #expect(outcome.stdout.isEmpty, "\(outcome)")
    }

    @Test(arguments: ["0.0.0.0:0", "[::]:0"])
    func listeningBeyondLoopbackNeedsATokenFile(listen: String) async throws {
      let sandbox = try Sandbox()
      let outcome = try await ServeProcess.refusal(["--listen", listen], in: sandbox)
      #expect(outcome.status == 64, "\(outcome)")
      #expect(outcome.stdout.isEmpty, "\(outcome)")
      #expect(!outcome.stderr.isEmpty, "\(outcome)")
      let tokens = try ServeFixtures.tokenFile(in: sandbox)
      let server = try await ServeProcess(
        ["--listen", "0.0.0.0:0", "--token-file", tokens], in: sandbox)
      let connection = try RawHTTPConnection(port: server.port)
      let response = try await connection.exchange("GET", "/healthz")
      #expect(response.status == 200, "\(response)")
    }
  }

  /// `Origin` on state-changing requests, and CORS for `--allow-origin` origins.
  @Suite struct OriginTests {
    @Test func aForeignOriginCannotChangeState() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      for origin in [
        "http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:\(server.port)",
      ] {
        let order = try await client.order("banana-juice", headers: ["Origin": origin])
        try expectProblem(order, status: 403, code: "originNotAllowed")
        #expect(order.header("Access-Control-Allow-Origin") == nil, "\(order)")
        let edit = try await client.post(
          "/api/v1/stock/kiwi", json: ["add": 1], headers: ["Origin": origin])
        try expectProblem(edit, status: 403, code: "originNotAllowed")
      }
      #expect(try await sandbox.stock() == freshStock)
    }

    @Test func theServersOwnOriginMayChangeState() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let own = "http://127.0.0.1:\(server.port)"
      let order = try await server.client().order("banana-juice", headers: ["Origin": own])
      try expectJSON(order, status: 201)
    }

    @Test func anAllowedOriginGetsCORSHeadersAndAPreflight() async throws {
      let sandbox = try Sandbox()
      let kiosk = "http://kiosk.example:8000"
      let server = try await ServeProcess(["--allow-origin", kiosk], in: sandbox)
      let client = server.client()
      let order = try await client.order("banana-juice", headers: ["Origin": kiosk])
      try expectJSON(order, status: 201)
      #expect(order.header("Access-Control-Allow-Origin") == kiosk, "\(order)")
      let vary = order.headerValues("Vary").joined(separator: ",").lowercased()
      #expect(vary.contains("origin"), "\(order)")

      let preflight = try await client.send(
        "OPTIONS", "/api/v1/orders",
        headers: [
          "Origin": kiosk, "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type, idempotency-key",
        ])
      #expect(preflight.status == 204, "\(preflight)")
      #expect(preflight.header("Access-Control-Allow-Origin") == kiosk, "\(preflight)")
      let methods = preflight.header("Access-Control-Allow-Methods")?.uppercased() ?? ""
      #expect(methods.contains("POST"), "\(preflight)")
      let headers = preflight.header("Access-Control-Allow-Headers")?.lowercased() ?? ""
      #expect(
        headers.contains("content-type") && headers.contains("idempotency-key"), "\(preflight)")

      let stranger = try await client.send(
        "OPTIONS", "/api/v1/orders",
        headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "POST"])
      #expect(stranger.header("Access-Control-Allow-Origin") == nil, "\(stranger)")
      let read = try await client.get("/api/v1/menu", headers: ["Origin": "http://evil.example"])
      #expect(read.header("Access-Control-Allow-Origin") == nil, "\(read)")
      let foreign = try await client.order(
        "banana-juice", headers: ["Origin": "http://evil.example"])
      try expectProblem(foreign, status: 403, code: "originNotAllowed")
      #expect(try await sandbox.stock()["banana"] == 8)
    }

    /// `--allow-origin` takes a comma-separated list, as each option is given once.
    @Test func severalOriginsMayBeAllowed() async throws {
      let sandbox = try Sandbox()
      let origins = ["http://kiosk.example:8000", "https://till.example"]
      let server = try await ServeProcess(
        ["--allow-origin", origins.joined(separator: ",")], in: sandbox)
      for origin in origins {
        let order = try await server.client().order("banana-juice", headers: ["Origin": origin])
        try expectJSON(order, status: 201)
        #expect(order.header("Access-Control-Allow-Origin") == origin, "\(order)")
      }
    }

    /// A page of another site whose name was made to resolve to 127.0.0.1 (DNS rebinding)
    /// sends its own name as both `Host` and `Origin`; it is still not the server's origin,
    /// and without a token file the server does not answer to that name at all.
    @Test func anOriginMatchingAForeignHostHeaderIsStillForeign() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let foreign = "evil.example:\(server.port)"
      let response = try await server.connect().exchange(
        "POST", "/api/v1/orders",
        headers: [
          ("Host", foreign), ("Origin", "http://\(foreign)"), ("Content-Type", "application/json"),
        ], body: Array(#"{"juice":"banana-juice"}"#.utf8))
      try expectProblem(response, status: 403, code: "hostNotAllowed")
      let read = try await server.connect().exchange(
        "GET", "/api/v1/history", headers: [("Host", foreign)])
      try expectProblem(read, status: 403, code: "hostNotAllowed")
      let local = try await server.connect().exchange(
        "GET", "/api/v1/stock", headers: [("Host", "localhost:\(server.port)")])
      #expect(local.status == 200, "\(local)")
      #expect(try await sandbox.stock() == freshStock)
    }
  }
}
