import Foundation
import Testing

extension HTTPTests {
  /// `serve` takes up a changed menu without a restart; a broken change is reported on
  /// `/healthz` and the event stream, and the menu served stays as it was.
  @Suite struct LiveMenuServeTests {
    /// Asks `path` again until `condition` holds of the answer, for at most `LiveMenuTests.live`.
    static func poll(
      _ client: HTTPClient, _ path: String, until condition: (String) -> Bool
    ) async throws -> String {
      let deadline = ContinuousClock.now + LiveMenuTests.live
      var text = ""
      while ContinuousClock.now < deadline {
        text = try await client.get(path).text
        if condition(text) { return text }
        try await Task.sleep(for: .milliseconds(50))
      }
      return text
    }

    /// The next `event: menu`, passing over the others.
    static func nextMenuEvent(_ stream: EventStreamReader) async throws -> EventStreamReader.Block?
    {
      while let block = try await stream.nextEvent(timeout: LiveMenuTests.live) {
        if block.event == "menu" { return block }
      }
      return nil
    }

    @Test func anEditedUserPackIsServedAndABrokenEditIsReported() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let (stream, _) = try await EventStreamTests.openLive(server)
      try LiveMenuTests.writeUserPack(sandbox, "grape.json", LiveMenuTests.grape)
      let menu = try await Self.poll(client, "/api/v1/menu") { $0.contains("grape-juice") }
      #expect(menu.contains(#""id":"grape-juice""#), "\(menu)")
      let order = try await client.order("grape-juice")
      #expect(order.status == 201, "\(order)")
      let changed = try #require(try await Self.nextMenuEvent(stream), "\(stream.received)")
      #expect(try changed.json()["problem"] == nil, "\(changed)")

      try LiveMenuTests.writeUserPack(sandbox, "grape.json", LiveMenuTests.truncated)
      let health = try await Self.poll(client, "/healthz") { $0.contains("problem") }
      #expect(health.contains("grape.json: malformed JSON"), "\(health)")
      #expect(try await client.get("/healthz").status == 200)
      let broken = try #require(try await Self.nextMenuEvent(stream), "\(stream.received)")
      #expect(try broken.json()["problem"]?.string?.contains("grape.json") == true, "\(broken)")
      // The last good menu is still served.
      #expect(try await client.get("/api/v1/menu").text.contains(#""id":"grape-juice""#))
      _ = try await server.terminate()
    }
  }
}
