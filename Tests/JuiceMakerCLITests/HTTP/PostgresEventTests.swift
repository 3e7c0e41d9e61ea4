import Foundation
import TemporaryPostgres
import Testing

extension HTTPTests {
  /// `juice-maker serve` over a PostgreSQL store: events from other processes and other
  /// servers, and a store that stops answering. Under `CI=true` a missing PostgreSQL fails
  /// these tests instead of skipping them.
  @Suite(.enabled(if: TemporaryServer.isInstalled || TemporaryServer.isRequired))
  struct PostgresEventTests {
    private static let shared = Result { () throws(TemporaryServer.Unavailable) in
      try TemporaryServer.start()
    }

    /// A new store in a database of its own on the shared server, with the shipped stock.
    static func newStore(in sandbox: Sandbox) async throws -> String {
      let server = try shared.get()
      let uri = server.socketURI(database: try server.createDatabase())
      try await sandbox.initialize(uri)
      return uri
    }

    @Test func anOrderByTheCLIReachesTheStreamWithinASecond() async throws {
      let sandbox = try Sandbox(.absent)
      let store = try await Self.newStore(in: sandbox)
      let server = try await ServeProcess(in: sandbox, store: store)
      let (stream, _) = try await EventStreamTests.openLive(server)
      let outcome = try await sandbox.run(
        ["--store", store, "--shop", "airport", "order", "mango-juice"], useStore: false)
      #expect(outcome.status == 0, "\(outcome)")
      let event = try #require(
        try await stream.nextEvent(timeout: EventStreamTests.arrival), "\(stream.received)")
      let entry = try event.json()
      #expect(entry["juice"] == "mango-juice")
      #expect(entry["shop"] == "airport")
      #expect(event.id == entry["sequence"]?.int.map(String.init))
    }

    @Test func anOrderOnOneServerReachesTheOtherServersStream() async throws {
      let sandbox = try Sandbox(.absent)
      let store = try await Self.newStore(in: sandbox)
      let first = try await ServeProcess(in: sandbox, store: store, global: ["--shop", "a"])
      let second = try await ServeProcess(in: sandbox, store: store, global: ["--shop", "b"])
      let (stream, _) = try await EventStreamTests.openLive(second)
      let made = try await first.client().order("banana-juice", key: "across-1")
      let order = try expectJSON(made, status: 201)
      let event = try #require(
        try await stream.nextEvent(timeout: EventStreamTests.arrival), "\(stream.received)")
      let entry = try event.json()
      #expect(entry["requestId"] == "across-1")
      #expect(entry["shop"] == "a")
      #expect(entry["sequence"] == order["sequence"])

      // The key is the store's, not one server's.
      let replayed = try await second.client().order("banana-juice", key: "across-1")
      #expect(replayed.status == 201, "\(replayed)")
      #expect(try replayed.json() == order)
      #expect(replayed.header("Idempotent-Replayed") == "true", "\(replayed)")
      let stock = try expectJSON(try await second.client().get("/api/v1/stock"), status: 200)
      #expect(stock["fruits"]?.array?.first { $0["id"] == "banana" }?["level"] == 8)
    }

    @Test func resumingOnAnotherServerGetsWhatTheFirstJournaled() async throws {
      let sandbox = try Sandbox(.absent)
      let store = try await Self.newStore(in: sandbox)
      let first = try await ServeProcess(in: sandbox, store: store)
      for juice in ["banana-juice", "kiwi-juice", "mango-juice"] {
        try expectJSON(try await first.client().order(juice), status: 201)
      }
      let second = try await ServeProcess(in: sandbox, store: store)
      let stream = try await EventStreamReader(second, headers: [("Last-Event-ID", "1")])
      _ = try await stream.nextBlock()
      let missed = [try await stream.nextBlock(), try await stream.nextBlock()]
      #expect(try missed.map { try $0?.json()["juice"] } == ["kiwi-juice", "mango-juice"])
      #expect(try await stream.nextBlock()?.event == "live", "\(stream.received)")
    }

    @Test func aStoreThatStopsAnsweringIsUnhealthyAndRecovers() async throws {
      let postgres = try TemporaryServer.start()
      defer { postgres.stop() }
      let store = postgres.socketURI(database: try postgres.createDatabase())
      let sandbox = try Sandbox(.absent)
      try await sandbox.initialize(store)
      let server = try await ServeProcess(in: sandbox, store: store)
      #expect(try await server.client().get("/healthz").status == 200)

      try postgres.crash()
      let health = try await server.client().get("/healthz")
      let problem = try expectProblem(health, status: 503, code: "storeUnavailable")
      #expect(problem["detail"]?.string?.isEmpty == false)
      let order = try await server.client().order("banana-juice", key: "while-down")
      #expect(order.status == 503, "\(order)")
      #expect(
        ["storeUnavailable", "outcomeUnknown"].contains(try order.json()["code"]?.string),
        "\(order)")
      #expect(server.isRunning)

      try postgres.restart()
      var recovered: ServerResponse?
      let deadline = ContinuousClock.now + .seconds(30)
      while ContinuousClock.now < deadline {
        recovered = try await server.client().get("/healthz")
        if recovered?.status == 200 { break }
        try await Task.sleep(for: .milliseconds(200))
      }
      #expect(recovered?.status == 200, "\(String(describing: recovered))")
      // The order that met the stopped store is made at most once when retried.
      let retried = try await server.client().order("banana-juice", key: "while-down")
      #expect(retried.status == 201, "\(retried)")
      let stock = try expectJSON(try await server.client().get("/api/v1/stock"), status: 200)
      #expect(stock["fruits"]?.array?.first { $0["id"] == "banana" }?["level"] == 8)
    }
  }
}
