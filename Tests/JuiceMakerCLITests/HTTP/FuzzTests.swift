import Foundation
import Testing

extension HTTPTests {
  /// A seeded fuzz run of request paths, queries, headers and bodies: the server answers
  /// every request, never with a server error, and the store stays consistent.
  @Suite struct FuzzTests {
    /// The seed; a failure names the request number, and the same seed repeats it.
    static let seed: UInt64 = 0x5EED_2026_1125
    /// How many requests one run sends.
    static let requests = 400

    /// One generated request.
    struct Request: Sendable, CustomStringConvertible {
      var method: String
      var target: String
      var headers: [(String, String)]
      var body: [UInt8]?

      var description: String {
        let shown = body.map { String(decoding: $0.prefix(300), as: UTF8.self) } ?? ""
        return "\(method) \(target) \(headers) \(shown)"
      }
    }

    /// Generates requests from a seeded generator.
    struct Generator {
      var random: SeededRandom

      static let paths = [
        "/api/v1/menu", "/api/v1/stock", "/api/v1/orders", "/api/v1/stock/kiwi",
        "/api/v1/stock/%ED%82%A4%EC%9C%84", "/api/v1/stock/nofruit", "/api/v1/history",
        "/api/v1/strings", "/api/v1/session", "/api/v1/openapi.json", "/api/v1/events", "/healthz",
        "/metrics", "/api/v1/", "/api/v1/stock/", "/api/v1/orders/x",
      ]
      static let keys = [
        "juice", "count", "add", "remove", "set", "expected", "token", "lang", "x",
      ]
      static let words = [
        "banana-juice", "kiwi-juice", "strawberry-banana-juice", "딸바쥬스", "Mango Juice", "kiwi",
        "", " ", "\u{0}", "\u{202E}evil", "🍓", String(repeating: "z", count: 300), "null", "-1",
        "../../etc/passwd", "%00", "\\u0000",
      ]
      static let numbers = [
        "0", "1", "2", "-1", "1000", "1001", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "1e400", "1.5", "-0", "0.0", "1E2", "99999999999999999999999",
      ]

      mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(random.next() % UInt64(choices.count))]
      }

      mutating func chance(_ percent: UInt64) -> Bool {
        random.next() % 100 < percent
      }

      mutating func json(depth: Int = 0) -> String {
        switch random.next() % (depth > 2 ? 5 : 7) {
        case 0: return JSONValue.quoted(pick(Self.words))
        case 1, 2: return pick(Self.numbers)
        case 3: return pick(["true", "false", "null"])
        case 4: return JSONValue.quoted(String(random.next() % 100))
        case 5:
          let count = Int(random.next() % 4)
          return "[" + (0..<count).map { _ in json(depth: depth + 1) }.joined(separator: ",") + "]"
        default:
          let count = Int(random.next() % 4)
          let members = (0..<count).map { _ in
            JSONValue.quoted(pick(Self.keys)) + ":" + json(depth: depth + 1)
          }
          return "{" + members.joined(separator: ",") + "}"
        }
      }

      mutating func body() -> [UInt8] {
        var text: String
        if chance(60) {
          let count = Int(random.next() % 4)
          let members = (0..<count).map { _ in
            JSONValue.quoted(pick(Self.keys)) + ":" + json(depth: 1)
          }
          text = "{" + members.joined(separator: ",") + "}"
        } else {
          text = json()
        }
        var bytes = Array(text.utf8)
        if chance(20), !bytes.isEmpty {
          let index = Int(random.next() % UInt64(bytes.count))
          bytes[index] = UInt8(truncatingIfNeeded: random.next())
        }
        if chance(10), !bytes.isEmpty {
          bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
        }
        return bytes
      }

      mutating func target() -> String {
        var path = pick(Self.paths)
        if chance(15) {
          path +=
            "/"
            + pick([
              "x", "%FF", "%2F", "..", "%00", "%ED%82%A4%EC%9C%84", "a%20b",
              String(repeating: "k", count: 200),
            ])
        }
        if chance(40) {
          let parameters = (0..<Int(random.next() % 3 + 1)).map { _ in
            pick(["lang", "limit", "since", "shop", "after", "x"]) + "="
              + pick([
                "ko", "en", "xx", "", "-5", "0", "1", "1000000", "1h", "2999-01-01T00:00:00Z",
                "%FF", "%ED%82%A4",
              ])
          }
          path += "?" + parameters.joined(separator: "&")
        }
        return path
      }

      mutating func next() -> Request {
        let method = pick([
          "GET", "GET", "GET", "POST", "POST", "POST", "POST", "DELETE", "PUT", "HEAD", "OPTIONS",
        ])
        var headers: [(String, String)] = []
        if method != "GET" && method != "HEAD" {
          headers.append(
            (
              "Content-Type",
              chance(85)
                ? "application/json"
                : pick(["text/plain", "application/jsonx", "", "application/json; charset=latin1"])
            ))
        }
        if chance(30) {
          headers.append(
            (
              "Idempotency-Key",
              pick(["fuzz-\(random.next() % 20)", "", String(repeating: "k", count: 140), "x y"])
            ))
        }
        if chance(20) {
          headers.append(("Accept-Language", pick(["ko", "en-US,en;q=0.5", "*", "zz", ";;;"])))
        }
        if chance(10) {
          headers.append(("Last-Event-ID", pick(["0", "-1", "abc", "99999999999999999999"])))
        }
        if chance(10) { headers.append(("Origin", pick(["http://evil.example", "null", ""]))) }
        let body = method == "GET" || method == "HEAD" ? nil : body()
        return Request(method: method, target: target(), headers: headers, body: body)
      }
    }

    @Test func seededRequestsAreAllAnsweredWithoutServerErrors() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let port = server.port
      let (failures, statuses) = try await onOwnThread { () -> ([String], [Int: Int]) in
        var generator = Generator(random: SeededRandom(seed: Self.seed))
        var failures: [String] = []
        var statuses: [Int: Int] = [:]
        for number in 0..<Self.requests {
          let request = generator.next()
          do {
            let connection = try RawHTTPConnection(port: port)
            defer { connection.close() }
            try connection.sendRequest(
              request.method, request.target, headers: request.headers, body: request.body)
            let deadline = ContinuousClock.now + .seconds(10)
            let (status, fields) = try connection.readHead(until: deadline)
            let head = ServerResponse(status: status, headers: fields, body: [])
            statuses[status, default: 0] += 1
            if head.mediaType == "text/event-stream" { continue }
            connection.close()
            if status >= 500 {
              failures.append("#\(number) \(request) → \(status)")
            }
            if status >= 400, request.target.hasPrefix("/api/"), request.method != "HEAD",
              head.mediaType != "application/problem+json"
            {
              failures.append("#\(number) \(request) → \(status) \(head.mediaType ?? "no type")")
            }
          } catch {
            failures.append("#\(number) \(request) → \(error)")
          }
        }
        return (failures, statuses)
      }
      // The run reached the handlers, not only the parser: some requests were served.
      let served = statuses.filter { (200..<300).contains($0.key) }.values.reduce(0, +)
      #expect(served >= Self.requests / 10, "\(statuses.sorted { $0.key < $1.key })")
      #expect(
        failures.isEmpty,
        "\(failures.count) failures:\n\(failures.prefix(20).joined(separator: "\n"))")
      #expect(server.isRunning, "the server ended: \(server.stderr)")
      let health = try await server.client().get("/healthz")
      #expect(health.status == 200, "\(health)")

      // Whatever the fuzz changed, every level is the shipped one plus the journal's changes.
      let stock = try await sandbox.stock()
      var expected = freshStock
      for entry in try await sandbox.history() {
        for (fruit, change) in entry["changes"] as? [String: Int] ?? [:] {
          expected[fruit, default: 0] += change
        }
      }
      #expect(stock == expected)
      #expect(try await server.terminate() == 0, "\(server.stderr)")
    }
  }
}
