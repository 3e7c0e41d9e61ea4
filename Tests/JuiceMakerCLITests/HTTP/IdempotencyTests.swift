import Foundation
import Testing

extension HTTPTests {
  /// `Idempotency-Key` is the journal's request id: a request sent again is answered with
  /// the first response and changes nothing, whoever sent it first.
  @Suite struct IdempotencyTests {
    @Test func theSameOrderUnderTheSameKeyIsAnsweredAgainAndMadeOnce() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let first = try await client.order("banana-juice", count: 2, key: "till-1-0001")
      let second = try await client.order("banana-juice", count: 2, key: "till-1-0001")
      let order = try expectJSON(first, status: 201)
      #expect(order["requestId"] == "till-1-0001")
      #expect(first.header("Idempotency-Key") == "till-1-0001")
      #expect(first.header("Idempotent-Replayed") == nil, "\(first)")
      #expect(second.status == first.status, "\(second)")
      #expect(try second.json() == order, "\(second)")
      #expect(second.header("Idempotent-Replayed") == "true", "\(second)")
      #expect(second.header("Idempotency-Key") == "till-1-0001", "\(second)")
      #expect(try await sandbox.stock()["banana"] == 6)
      #expect(try await sandbox.history().count == 1)
    }

    @Test func anOrderNamedAnotherWayIsTheSameOrder() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let first = try await client.order("banana-juice", key: "K-name")
      let second = try await client.order("Banana Juice", key: "K-name")
      #expect(second.status == 201, "\(second)")
      #expect(try second.json() == first.json())
      #expect(try await sandbox.stock()["banana"] == 8)
    }

    @Test func aRefusalIsAnsweredAgainEvenAfterTheStockChanged() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let first = try await client.order("strawberry-juice", key: "K-refused")
      try expectProblem(first, status: 409, code: "outOfStock")
      let added = try await sandbox.run(["stock", "add", "strawberry", "10"])
      #expect(added.status == 0, "\(added)")
      let second = try await client.order("strawberry-juice", key: "K-refused")
      #expect(second.status == 409, "\(second)")
      #expect(try second.json() == first.json(), "\(second)")
      #expect(second.header("Idempotent-Replayed") == "true", "\(second)")
      #expect(try await sandbox.stock()["strawberry"] == 20)
    }

    @Test func anotherOrderUnderAUsedKeyIsRefusedNamingTheKey() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      try expectJSON(try await client.order("banana-juice", key: "K-reused"), status: 201)
      for (juice, count) in [("kiwi-juice", 1), ("banana-juice", 2)] {
        let reused = try await client.order(juice, count: count, key: "K-reused")
        let problem = try expectProblem(reused, status: 422, code: "requestIDReused")
        #expect(problem["detail"]?.string?.contains("K-reused") == true, "\(problem)")
      }
      let edit = try await client.post(
        "/api/v1/stock/kiwi", json: ["add": 1], headers: ["Idempotency-Key": "K-reused"])
      try expectProblem(edit, status: 422, code: "requestIDReused")
      #expect(try await sandbox.stock() == freshStock.merging(["banana": 8]) { $1 })
      #expect(try await sandbox.history().count == 1)
    }

    @Test func aStockEditUnderTheSameKeyIsMadeOnce() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let headers = ["Idempotency-Key": "K-edit"]
      let first = try await client.post("/api/v1/stock/kiwi", json: ["add": 3], headers: headers)
      let second = try await client.post("/api/v1/stock/kiwi", json: ["add": 3], headers: headers)
      #expect(try expectJSON(first, status: 200)["after"] == 13)
      #expect(second.status == 200, "\(second)")
      #expect(try second.json() == first.json())
      #expect(second.header("Idempotent-Replayed") == "true", "\(second)")
      #expect(try await sandbox.stock()["kiwi"] == 13)
      let other = try await client.post("/api/v1/stock/kiwi", json: ["add": 4], headers: headers)
      try expectProblem(other, status: 422, code: "requestIDReused")
    }

    @Test func aKeyUsedByTheCLIIsAnsweredByTheServerAndTheOtherWayRound() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let cli = try await sandbox.run(["order", "banana-juice", "--request-id", "shared-1"])
      #expect(cli.status == 0, "\(cli)")
      let replayed = try await client.order("banana-juice", key: "shared-1")
      let order = try expectJSON(replayed, status: 201)
      #expect(replayed.header("Idempotent-Replayed") == "true", "\(replayed)")
      #expect(order["requestId"] == "shared-1")
      #expect(withoutNames(order["levels"]) == [["fruit": "banana", "level": 8]])
      let refused = try await client.order("kiwi-juice", key: "shared-1")
      try expectProblem(refused, status: 422, code: "requestIDReused")

      try expectJSON(try await client.order("mango-juice", key: "shared-2"), status: 201)
      let again = try await sandbox.run(["order", "mango-juice", "--request-id", "shared-2"])
      #expect(again.status == 0, "\(again)")
      let other = try await sandbox.run(["order", "kiwi-juice", "--request-id", "shared-2"])
      #expect(other.status == 64, "\(other)")
      #expect(try await sandbox.stock() == freshStock.merging(["banana": 8, "mango": 7]) { $1 })
      #expect(try await sandbox.history().count == 2)
    }

    @Test func aKeyIsRememberedAcrossARestartOfTheServer() async throws {
      let sandbox = try Sandbox()
      let first = try await ServeProcess(in: sandbox)
      let made = try await first.client().order("kiwi-juice", count: 2, key: "restart-1")
      let order = try expectJSON(made, status: 201)
      #expect(try await first.terminate() == 0)
      let cli = try await sandbox.run(["order", "mango-juice", "--request-id", "restart-2"])
      #expect(cli.status == 0, "\(cli)")

      let second = try await ServeProcess(in: sandbox)
      let again = try await second.client().order("kiwi-juice", count: 2, key: "restart-1")
      #expect(again.status == 201, "\(again)")
      #expect(try again.json() == order, "\(again)")
      #expect(again.header("Idempotent-Replayed") == "true", "\(again)")
      let fromCLI = try await second.client().order("mango-juice", key: "restart-2")
      #expect(fromCLI.status == 201, "\(fromCLI)")
      #expect(fromCLI.header("Idempotent-Replayed") == "true", "\(fromCLI)")
      try expectProblem(
        try await second.client().order("mango-juice", key: "restart-1"), status: 422,
        code: "requestIDReused")
      #expect(try await sandbox.stock() == freshStock.merging(["kiwi": 4, "mango": 7]) { $1 })
    }

    @Test func anOrderWithoutAKeyGetsOneThatReplaysIt() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let first = try await client.order("banana-juice")
      let second = try await client.order("banana-juice")
      let key = try #require(first.header("Idempotency-Key"), "\(first)")
      #expect(!key.isEmpty)
      #expect(try expectJSON(first, status: 201)["requestId"] == .string(key))
      #expect(second.header("Idempotency-Key") != key, "two orders without a key are two orders")
      #expect(try await sandbox.stock()["banana"] == 6)
      let replayed = try await client.order("banana-juice", key: key)
      #expect(replayed.header("Idempotent-Replayed") == "true", "\(replayed)")
      #expect(try replayed.json() == first.json())
      #expect(try await sandbox.stock()["banana"] == 6)
    }

    @Test func aClientRetryingAfterALostReplyGetsTheOrderOnce() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let body = Array(#"{"juice":"kiwi-juice"}"#.utf8)
      let headers = [("Content-Type", "application/json"), ("Idempotency-Key", "lost-reply-1")]
      // The first attempt's reply is lost: the client vanishes right after sending.
      let lost = try server.connect()
      try lost.sendRequest("POST", "/api/v1/orders", headers: headers, body: body)
      lost.reset()
      // A second attempt races with the first one's end; a third comes after both.
      let racing = try await server.connect().exchange(
        "POST", "/api/v1/orders", headers: headers, body: body)
      let last = try await server.client().order("kiwi-juice", key: "lost-reply-1")
      #expect(racing.status == 201, "\(racing)")
      #expect(last.status == 201, "\(last)")
      #expect(try last.json() == racing.json())
      #expect(last.header("Idempotent-Replayed") == "true", "\(last)")
      #expect(try await sandbox.stock()["kiwi"] == 7)
      let history = try await sandbox.history()
      #expect(history.count == 1, "\(history)")
    }

    @Test func concurrentRequestsUnderOneKeyMakeOneOrder() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let client = server.client()
      let responses = try await withThrowingTaskGroup(of: ServerResponse.self) { group in
        for _ in 0..<8 {
          group.addTask { try await client.order("mango-juice", key: "together-1") }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      let bodies = try responses.map { try $0.json() }
      #expect(responses.allSatisfy { $0.status == 201 }, "\(responses)")
      #expect(Set(bodies.map(\.description)).count == 1, "\(bodies)")
      #expect(responses.filter { $0.header("Idempotent-Replayed") == nil }.count <= 1)
      #expect(try await sandbox.stock()["mango"] == 7)
      #expect(try await sandbox.history().count == 1)
    }

    @Test(arguments: [
      Array("".utf8), Array(String(repeating: "k", count: 129).utf8), Array("줄".utf8),
      [0x41, 0x01, 0x42],
    ])
    func anInvalidKeyIsABadRequest(key: [UInt8]) async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let connection = try server.connect()
      let head =
        Array(
          "POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 22\r\nIdempotency-Key: "
            .utf8) + key + Array("\r\n\r\n".utf8)
      let response = try await onOwnThread {
        try connection.send(head + Array(#"{"juice":"kiwi-juice"}"#.utf8))
        return try connection.readResponse()
      }
      try expectProblem(response, status: 400, code: "invalidRequestID")
      #expect(try await sandbox.stock() == freshStock)
    }

    @Test func aKeyOf128PrintableBytesIsAccepted() async throws {
      let sandbox = try Sandbox()
      let server = try await ServeProcess(in: sandbox)
      let key = String(repeating: "k", count: 120) + "!~#$%&*+"
      let response = try await server.client().order("kiwi-juice", key: key)
      #expect(try expectJSON(response, status: 201)["requestId"] == .string(key))
    }
  }
}
