import Foundation
import Testing

extension HTTPTests {
  /// `/api/v1/events`: one event per journal entry, whoever wrote it, resumable.
  @Suite struct EventStreamTests {
    /// How long an event may take to arrive: api.md's second, with slack for a busy
    /// machine.
    static let arrival: Duration = .seconds(3)

    /// Opens a stream and reads its opening: the `retry:` block, then `event: live`.
    ///
    /// - Returns: The stream and the sequence `event: live` reported.
    static func openLive(
      _ server: ServeProcess, path: String = "/api/v1/events",
      headers: [(String, String)] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (EventStreamReader, Int) {
      let stream = try await EventStreamReader(server, path: path, headers: headers)
      try #require(stream.head.status == 200, "\(stream.head)", sourceLocation: sourceLocation)
      let retry = try await stream.nextBlock()
      #expect(retry?.retry == "1000", "\(stream.received)", sourceLocation: sourceLocation)
      let live = try #require(try await stream.nextBlock(), sourceLocation: sourceLocation)
      #expect(live.event == "live", "\(stream.received)", sourceLocation: sourceLocation)
      let sequence = try #require(
        try live.json()["sequence"]?.int, "\(live)", sourceLocation: sourceLocation)
      return (stream, sequence)
    }

    @Test func aStreamStartsWithRetryThenLive() async throws {
      let sandbox = try Sandbox()
      _ = try await sandbox.run(["order", "banana-juice"])
      let server = try await ServeProcess(in: sandbox)
      let stream = try await EventStreamReader(server)
      #expect(stream.head.status == 200)
      #expect(stream.head.mediaType == "text/event-stream", "\(stream.head)")
      #expect(stream.head.header("X-Content-Type-Options") == "nosniff", "\(stream.head)")
      #expect(
        stream.head.header("Cache-Control")?.contains("no-store") == true
          || stream.head.header("Cache-Control")?.contains("no-cache") == true, "\(stream.head)")
      let first = try #require(try await stream.nextBlock())
      #expect(first.lines == ["retry: 1000"], "\(stream.received)")
      #expect(stream.received.hasPrefix("retry: 1000\n\n"), "\(stream.received)")
      let live = try #require(try await stream.nextBlock())
      #expect(live.event == "live")
      // Without Last-Event-ID or ?after=, nothing before the stream opened is sent.
      #expect(try live.json() == ["sequence": 1], "\(live)")
    }

    @Test func anOrderByTheCLIInAnotherProcessReachesTheStreamWithinASecond() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let (stream, live) = try await Self.openLive(server)
      let outcome = try await sandbox.run([
        "--shop", "airport", "order", "kiwi-juice", "--request-id", "cli-1",
      ])
      #expect(outcome.status == 0, "\(outcome)")
      let event = try #require(try await stream.nextEvent(timeout: Self.arrival))
      #expect(event.event == nil, "an entry is a plain message: \(event)")
      let entry = try event.json()
      #expect(event.id == entry["sequence"]?.int.map(String.init), "\(event)")
      #expect(try #require(entry["sequence"]?.int) > live)
      #expect(entry["requestId"] == "cli-1")
      #expect(entry["shop"] == "airport")
      #expect(entry["action"] == "order")
      #expect(entry["juice"] == "kiwi-juice")
      #expect(entry["count"] == 1)
      #expect(entry["outcome"] == "done")
      #expect(withoutNames(entry["changes"]) == [["fruit": "kiwi", "before": 10, "after": 7]])
      #expect(entry["text"]?.string?.hasPrefix("airport: ") == true, "\(entry)")
      #expect(entry["time"]?.string?.hasSuffix("Z") == true, "\(entry)")
    }

    @Test func refusalsEditsAndConflictsAreEventsToo() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let (stream, _) = try await Self.openLive(server)
      let client = server.client()
      _ = try await client.order("strawberry-juice")
      _ = try await client.post("/api/v1/stock/kiwi", json: ["add": 3])
      _ = try await client.post("/api/v1/stock/kiwi", json: ["set": 1, "expected": 5])
      let refused = try #require(try await stream.nextEvent(timeout: Self.arrival)).json()
      #expect(refused["outcome"] == "refused", "\(refused)")
      #expect(
        refused["shortages"]?[0]?["fruit"] == "strawberry" && refused["changes"] == [],
        "\(refused)")
      let added = try #require(try await stream.nextEvent(timeout: Self.arrival)).json()
      #expect(added["action"] == "add" && added["fruit"] == "kiwi" && added["count"] == 3)
      #expect(withoutNames(added["changes"]) == [["fruit": "kiwi", "before": 10, "after": 13]])
      let conflict = try #require(try await stream.nextEvent(timeout: Self.arrival)).json()
      #expect(conflict["action"] == "set" && conflict["outcome"] == "conflict", "\(conflict)")
      #expect(conflict["expected"] == 5)
      #expect(
        conflict["conflict"] == ["fruit": "kiwi", "expected": 5, "actual": 13], "\(conflict)")
    }

    @Test func resumingWithLastEventIDSendsTheMissedEntriesThenLiveThenNewOnes() async throws {
      let sandbox = try Sandbox()
      for juice in ["banana-juice", "kiwi-juice", "mango-juice"] {
        let outcome = try await sandbox.run(["order", juice])
        #expect(outcome.status == 0, "\(outcome)")
      }
      let server = try await ServeProcess(in: sandbox)
      let stream = try await EventStreamReader(server, headers: [("Last-Event-ID", "1")])
      #expect(try await stream.nextBlock()?.retry == "1000")
      let missed = [try await stream.nextBlock(), try await stream.nextBlock()]
      #expect(missed.map { $0?.id } == ["2", "3"], "\(stream.received)")
      #expect(try missed.map { try $0?.json()["juice"] } == ["kiwi-juice", "mango-juice"])
      let live = try #require(try await stream.nextBlock())
      #expect(live.event == "live", "\(stream.received)")
      #expect(try live.json() == ["sequence": 3], "\(stream.received)")
      _ = try await sandbox.run(["order", "pineapple-juice"])
      let new = try #require(try await stream.nextEvent(timeout: Self.arrival))
      #expect(new.id == "4")
      #expect(try new.json()["juice"] == "pineapple-juice")
    }

    @Test func entriesJournaledWhileAStreamCatchesUpArriveOnceAndInOrder() async throws {
      let sandbox = try Sandbox()
      await sandbox.setStock(["kiwi": 1000])
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      for _ in 0..<40 {
        _ = try await client.post("/api/v1/stock/kiwi", json: ["remove": 1])
      }
      let writer = Task {
        for _ in 0..<40 {
          _ = try await client.post("/api/v1/stock/kiwi", json: ["remove": 1])
        }
      }
      let stream = try await EventStreamReader(server, path: "/api/v1/events?after=0")
      try await writer.value
      let last = try #require(try await client.get("/api/v1/stock").json()["sequence"]?.int)
      var ids: [Int] = []
      var lives = 0
      while ids.last ?? 0 < last {
        let block = try #require(
          try await stream.nextEvent(timeout: Self.arrival), "\(ids) \(stream.received.suffix(500))"
        )
        if block.event == "live" {
          lives += 1
          continue
        }
        ids.append(try #require(block.id.flatMap { Int($0) }, "\(block)"))
      }
      #expect(ids == Array(1...last), "\(ids)")
      #expect(lives == 1)
    }

    @Test func resumingWithAfterWorksAndTheHeaderWins() async throws {
      let sandbox = try Sandbox()
      for juice in ["banana-juice", "kiwi-juice", "mango-juice"] {
        _ = try await sandbox.run(["order", juice])
      }
      let server = try await ServeProcess(in: sandbox)
      let after = try await EventStreamReader(server, path: "/api/v1/events?after=0")
      _ = try await after.nextBlock()
      var ids: [String?] = []
      for _ in 0..<3 { ids.append(try await after.nextBlock()?.id) }
      #expect(ids == ["1", "2", "3"], "\(after.received)")
      #expect(try await after.nextBlock()?.event == "live")

      let both = try await EventStreamReader(
        server, path: "/api/v1/events?after=0", headers: [("Last-Event-ID", "2")])
      _ = try await both.nextBlock()
      #expect(try await both.nextBlock()?.id == "3", "\(both.received)")
      #expect(try await both.nextBlock()?.event == "live", "\(both.received)")
    }

    @Test func resumingFromTheLatestEntrySendsLiveAtOnce() async throws {
      let sandbox = try Sandbox()
      _ = try await sandbox.run(["order", "banana-juice"])
      let server = try await ServeProcess(in: sandbox)
      let (_, live) = try await Self.openLive(server, headers: [("Last-Event-ID", "1")])
      #expect(live == 1)
    }

    @Test func theEntrysTextIsInTheStreamsLanguage() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let (korean, _) = try await Self.openLive(server, path: "/api/v1/events?lang=ko")
      let (english, _) = try await Self.openLive(server, path: "/api/v1/events?lang=en")
      _ = try await sandbox.run(["--shop", "airport", "order", "strawberry-banana-juice"])
      _ = try await sandbox.run(["--shop", "airport", "stock", "add", "kiwi", "3"])
      let order = try #require(try await korean.nextEvent(timeout: Self.arrival)).json()
      #expect(order["text"] == "airport: 딸바쥬스 1잔", "\(order)")
      let edit = try #require(try await korean.nextEvent(timeout: Self.arrival)).json()
      #expect(edit["text"] == "airport: 키위 +3", "\(edit)")
      let englishOrder = try #require(try await english.nextEvent(timeout: Self.arrival)).json()
      #expect(!isKorean(englishOrder["text"]?.string), "\(englishOrder)")
      #expect(englishOrder["text"]?.string?.hasPrefix("airport: ") == true)
    }

    @Test func everyOpenStreamGetsEveryEntryAndMetricsCountThem() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let streams = try await [Self.openLive(server).0, Self.openLive(server).0]
      let metrics = try await server.client().get("/metrics").text
      #expect(metrics.split(separator: "\n").contains("juice_maker_event_streams 2"), "\(metrics)")
      _ = try await server.client().order("banana-juice")
      for stream in streams {
        let event = try #require(try await stream.nextEvent(timeout: Self.arrival))
        #expect(try event.json()["juice"] == "banana-juice")
      }
      // A stream whose client is gone stops counting once the server writes to it: at the
      // next entry or heartbeat (every 15 s) at the latest.
      streams[0].connection.reset()
      var after = ""
      let deadline = ContinuousClock.now + .seconds(20)
      while ContinuousClock.now < deadline {
        _ = try await server.client().order("kiwi-juice")
        after = try await server.client().get("/metrics").text
        if after.split(separator: "\n").contains("juice_maker_event_streams 1") { break }
        try await Task.sleep(for: .seconds(1))
      }
      #expect(after.split(separator: "\n").contains("juice_maker_event_streams 1"), "\(after)")
    }

    @Test func aStreamIsNotCutByTheIdleTimeout() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(["--idle-timeout", "1"], in: sandbox)
      let (stream, _) = try await Self.openLive(server)
      try await Task.sleep(for: .seconds(3))
      _ = try await sandbox.run(["order", "banana-juice"])
      let event = try #require(
        try await stream.nextEvent(timeout: Self.arrival), "\(stream.received)")
      #expect(try event.json()["juice"] == "banana-juice")
    }

    @Test func aClientThatVanishesDoesNotDisturbTheOthers() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let (gone, _) = try await Self.openLive(server)
      let (staying, _) = try await Self.openLive(server)
      gone.connection.reset()
      for juice in ["banana-juice", "kiwi-juice"] {
        _ = try await server.client().order(juice)
      }
      let events = [
        try await staying.nextEvent(timeout: Self.arrival),
        try await staying.nextEvent(timeout: Self.arrival),
      ]
      #expect(try events.map { try $0?.json()["juice"] } == ["banana-juice", "kiwi-juice"])
      #expect(
        try expectJSON(try await server.client().get("/healthz"), status: 200) == [
          "status": "ok", "menu": ["version": 0],
        ])
    }
  }
}
