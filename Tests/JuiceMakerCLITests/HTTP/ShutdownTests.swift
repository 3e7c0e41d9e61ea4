import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension HTTPTests {
  /// SIGTERM drains the server; SIGKILL under load loses no fruit.
  @Suite struct ShutdownTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalFinishesTheRequestInFlightEndsStreamsAndExitsZero(signal: Int32) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let (stream, _) = try await EventStreamTests.openLive(server)
      // A request in flight: its head and half its body are sent.
      let body = Array(#"{"juice":"kiwi-juice"}"#.utf8)
      let inFlight = try server.connect()
      try inFlight.sendRequest(
        "POST", "/api/v1/orders",
        headers: [("Content-Type", "application/json"), ("Content-Length", String(body.count))])
      try inFlight.send(Array(body.prefix(8)))
      try await Task.sleep(for: .milliseconds(300))

      kill(server.pid, signal)
      try await Task.sleep(for: .seconds(1))

      // No new connection is served while the request in flight finishes.
      let late = try? server.connect()
      let lateResponse = try? await late?.exchange("GET", "/healthz", timeout: .seconds(2))
      #expect(
        lateResponse == nil, "a new connection was served: \(String(describing: lateResponse))")

      try inFlight.send(Array(body.dropFirst(8)))
      let response = try await inFlight.response()
      #expect(response.status == 201, "\(response)")

      let (blocks, ended) = await stream.readToEnd(timeout: .seconds(10))
      #expect(ended, "the stream did not end: \(stream.received)")
      #expect(blocks.last?.retry == "1000", "\(stream.received)")
      #expect(try await server.waitForExit(timeout: .seconds(30)) == 0, "\(server.stderr)")
      #expect(throws: (any Error).self) { try server.connect() }
      #expect(try await sandbox.stock()["kiwi"] == 7)
    }

    @Test func sigtermEndsEveryEventStreamWithRetryAndExitsZero() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let streams = try await [
        EventStreamTests.openLive(server).0,
        EventStreamTests.openLive(server, path: "/api/v1/events?after=0").0,
      ]
      kill(server.pid, SIGTERM)
      for stream in streams {
        let (blocks, ended) = await stream.readToEnd(timeout: .seconds(10))
        #expect(ended, "the stream did not end: \(stream.received)")
        #expect(blocks.last?.lines == ["retry: 1000"], "\(stream.received)")
      }
      #expect(try await server.waitForExit(timeout: .seconds(30)) == 0, "\(server.stderr)")
      #expect(throws: (any Error).self) { try server.connect() }
    }

    @Test func anIdleServerExitsZeroOnSIGTERM() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let idle = try server.connect()
      #expect(try await server.terminate(timeout: .seconds(30)) == 0, "\(server.stderr)")
      #expect(await idle.closed(within: .seconds(5)))
    }

    @Test func levelsAreConservedWhenTheServerIsKilledUnderLoad() async throws {
      let sandbox = try Sandbox()
      await sandbox.setStock(["strawberry": 200, "banana": 200, "kiwi": 200, "mango": 200])
      let entriesBefore = try await sandbox.history().count
      let server = try await ServeProcess(in: sandbox)
      let port = server.port
      let juices = [
        "banana-juice", "kiwi-juice", "mango-juice", "strawberry-banana-juice", "mango-kiwi-juice",
      ]
      let fruits = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
      let stopped = Flag()
      // Six clients on threads of their own, each request on a new connection with a
      // deadline, until the server is gone.
      let clients = (0..<6).map { worker in
        Task {
          try? await onOwnThread {
            var random = SeededRandom(seed: UInt64(worker + 1))
            var step = 0
            while !stopped.isSet {
              step += 1
              let fruit = fruits[Int(random.next() % 5)]
              let (path, body): (String, String)
              switch random.next() % 4 {
              case 0:
                (path, body) = ("/api/v1/stock/\(fruit)", #"{"add":\#(random.next() % 5 + 1)}"#)
              case 1:
                (path, body) = ("/api/v1/stock/\(fruit)", #"{"remove":\#(random.next() % 3 + 1)}"#)
              default:
                (path, body) = (
                  "/api/v1/orders", #"{"juice":"\#(juices[Int(random.next() % 5)])"}"#
                )
              }
              guard let connection = try? RawHTTPConnection(port: port) else { return }
              _ = try? connection.sendRequest(
                "POST", path,
                headers: [
                  ("Content-Type", "application/json"),
                  ("Idempotency-Key", "load-\(worker)-\(step)"),
                ], body: Array(body.utf8))
              _ = try? connection.readResponse(timeout: .seconds(5))
            }
          }
        }
      }
      try await Task.sleep(for: .seconds(2))
      try await server.kill()
      stopped.set()
      for client in clients { await client.value }

      let stock = try await sandbox.stock()
      let history = try await sandbox.history()
      #expect(history.count > entriesBefore, "no load reached the store")
      // Every level is the shipped one plus every change the journal holds.
      var expected = freshStock
      for entry in history {
        let changes = entry["changes"] as? [String: Int] ?? [:]
        for (fruit, change) in changes {
          expected[fruit, default: 0] += change
        }
      }
      #expect(stock == expected, "levels \(stock), journal says \(expected)")

      // The store opens again and the server serves the same levels.
      let again = try await ServeProcess(in: sandbox)
      let served = try expectJSON(try await again.client().get("/api/v1/stock"), status: 200)
      for fruit in served["fruits"]?.array ?? [] {
        let id = try #require(fruit["id"]?.string)
        #expect(fruit["level"]?.int == stock[id], "\(id)")
      }
    }
  }
}

/// A flag set once, read from many threads.
final class Flag: Sendable {
  private let value = Atomic(false)

  var isSet: Bool { value.load(ordering: .acquiring) }

  func set() {
    value.store(true, ordering: .releasing)
  }
}

/// SplitMix64: a small generator whose sequence is fixed by its seed, so a failing run
/// can be repeated.
struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
