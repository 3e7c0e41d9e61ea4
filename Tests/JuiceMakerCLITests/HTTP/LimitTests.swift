import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HTTPTests {
  /// The server's limits hold against clients that misbehave, and the server still answers
  /// everyone else.
  @Suite struct LimitTests {
    /// How long a well-behaved request may take while the server is under attack: not a
    /// speed claim, only "answered, not starved".
    static let patience: Duration = .seconds(10)

    /// A header section well over api.md's "about 8 KiB".
    enum LargeHeaders: String, CaseIterable, CustomTestStringConvertible {
      case oneLongField, manyFields, longCookie

      var fields: [(String, String)] {
        switch self {
        case .oneLongField: [("X-Padding", String(repeating: "a", count: 12 * 1024))]
        case .manyFields: (0..<150).map { ("X-Field-\($0)", String(repeating: "b", count: 80)) }
        case .longCookie: [("Cookie", String(repeating: "c=d; ", count: 4000))]
        }
      }

      var testDescription: String { rawValue }
    }

    @Test(arguments: LargeHeaders.allCases)
    func headersOver8KiBAreRefusedAndTheServerGoesOn(headers: LargeHeaders) async throws {
      let fields = headers.fields
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      let response = try? await connection.exchange("GET", "/api/v1/menu", headers: fields)
      if let response {
        #expect(response.status == 431, "\(response)")
      } else {
        #expect(await connection.closed(within: .seconds(5)), "neither 431 nor closed")
      }
      let health = try await server.client().get("/healthz")
      #expect(health.status == 200, "\(health)")
    }

    @Test func aLongRequestLineIsRefusedAndTheServerGoesOn() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      let target = "/api/v1/stock/" + String(repeating: "k", count: 20 * 1024)
      let response = try? await connection.exchange("GET", target)
      if let response {
        #expect([414, 431].contains(response.status), "\(response)")
      }
      #expect(try await server.client().get("/healthz").status == 200)
    }

    @Test func twoThousandIdleConnectionsDoNotStopANormalRequest() async throws {
      try Self.raiseOpenFileLimit(to: 8192)
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let port = server.port
      // 39 source addresses, about 52 connections each: under the per-address limit of 128.
      let idle = try await onOwnThread {
        var connections: [RawHTTPConnection] = []
        for index in 0..<2000 {
          let source = "127.0.0.\(2 + index % 39)"
          connections.append(try RawHTTPConnection(port: port, source: source))
        }
        return connections
      }
      #expect(idle.count == 2000)
      let started = ContinuousClock.now
      let response = try await server.client().get("/api/v1/stock")
      #expect(response.status == 200, "\(response)")
      #expect(ContinuousClock.now - started < Self.patience)
      // The idle connections are still open, not dropped to make room.
      let sample = idle[1999]
      let answered = try await sample.exchange("GET", "/healthz")
      #expect(answered.status == 200, "\(answered)")
      for connection in idle { connection.close() }
    }

    @Test func connectionsBeyondThePerAddressLimitAreRefused() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(["--max-per-ip", "4"], in: sandbox)
      let held = try (0..<4).map { _ in try server.connect(source: "127.0.0.7") }
      let extra = try server.connect(source: "127.0.0.7")
      let refused = try? await extra.exchange("GET", "/healthz", timeout: .seconds(5))
      #expect(refused == nil || refused?.status == 503, "\(String(describing: refused))")
      let other = try await server.connect(source: "127.0.0.8").exchange("GET", "/healthz")
      #expect(other.status == 200, "\(other)")
      let mine = try await held[0].exchange("GET", "/healthz")
      #expect(mine.status == 200, "\(mine)")
      held.forEach { $0.close() }
    }

    @Test func connectionsBeyondTheServersLimitAreRefusedUntilOthersClose() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(["--max-connections", "8"], in: sandbox)
      let held = try (0..<8).map { try server.connect(source: "127.0.0.\(10 + $0)") }
      try await Task.sleep(for: .milliseconds(200))
      let extra = try server.connect(source: "127.0.0.30")
      let refused = try? await extra.exchange("GET", "/healthz", timeout: .seconds(5))
      #expect(refused == nil || refused?.status == 503, "\(String(describing: refused))")
      held.forEach { $0.close() }
      var answered: ServerResponse?
      let deadline = ContinuousClock.now + Self.patience
      while answered == nil && ContinuousClock.now < deadline {
        answered = try? await server.connect().exchange("GET", "/healthz", timeout: .seconds(2))
        if answered == nil { try await Task.sleep(for: .milliseconds(100)) }
      }
      #expect(answered?.status == 200, "\(String(describing: answered))")
    }

    @Test func aClientDribblingItsHeaderDoesNotStopOthers() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let slow = try server.connect()
      let request = Array("GET /api/v1/menu HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: yes\r\n".utf8)
      let dribbling = Task.detached {
        try await onOwnThread {
          for byte in request {
            try slow.send([byte])
            usleep(50_000)
          }
        }
      }
      try await Task.sleep(for: .milliseconds(300))
      for _ in 0..<20 {
        let started = ContinuousClock.now
        let response = try await server.client().get("/api/v1/stock")
        #expect(response.status == 200, "\(response)")
        #expect(ContinuousClock.now - started < Self.patience)
      }
      try await dribbling.value
      let finished = try await slow.exchange("GET", "/healthz").status
      // The dribbled request is still one request: its end comes with the next line.
      #expect([200, 400].contains(finished))
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(["--idle-timeout", "1"], in: sandbox)
      let idle = try server.connect()
      #expect(await idle.closed(within: .seconds(10)))
      let halfBody = try server.connect()
      try halfBody.send(
        "POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ju"
      )
      #expect(await halfBody.closed(within: .seconds(10)))
      #expect(try await sandbox.stock() == freshStock)
      #expect(try await server.client().get("/healthz").status == 200)
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      for path in ["/healthz", "/api/v1/menu", "/api/v1/nope", "/api/v1/stock"] {
        let response = try await connection.exchange("GET", path)
        #expect([200, 404].contains(response.status), "\(response)")
      }
      let pipelined = try await onOwnThread {
        try connection.send(
          "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/v1/stock HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        return [try connection.readResponse(), try connection.readResponse()]
      }
      #expect(pipelined.map(\.status) == [200, 200])
      #expect(try pipelined[1].json()["fruits"] != nil)
    }

    /// Raises this process's soft limit of open files, which servers started later inherit.
    static func raiseOpenFileLimit(to wanted: rlim_t) throws {
      var limit = rlimit()
      #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
      #else
        let resource = RLIMIT_NOFILE
      #endif
      try #require(getrlimit(resource, &limit) == 0)
      guard limit.rlim_cur < wanted else { return }
      try #require(limit.rlim_max >= wanted, "the hard limit of open files is \(limit.rlim_max)")
      limit.rlim_cur = wanted
      try #require(setrlimit(resource, &limit) == 0)
    }
  }
}
