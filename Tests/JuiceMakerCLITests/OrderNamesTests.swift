import Testing

/// `order JUICE` loads only the name of the juice it is given; every message still names
/// each juice by its name.
struct OrderNamesTests {
  @Test func aJuiceGivenByItsIDIsNamed() async throws {
    let sandbox = try Sandbox()
    let order = try await sandbox.run(["--lang", "ko", "order", "banana-juice"])
    #expect(order.status == 0, "\(order)")
    #expect(order.stdout.contains("바나나쥬스 나왔습니다!"), "\(order)")
  }

  @Test func aJuiceFoundByAnotherSpellingIsNamed() async throws {
    let sandbox = try Sandbox()
    let order = try await sandbox.run(["--lang", "en", "order", "bananajuice"])
    #expect(order.status == 0, "\(order)")
    #expect(order.stdout.contains("Here is your Banana Juice. Enjoy!"), "\(order)")
  }

  /// The first use is named by its ids, which need no name loaded.
  @Test func aReusedRequestIDNamesTheOperationItWasFirstUsedFor() async throws {
    let sandbox = try Sandbox()
    let id = "0f8a3c52-6d1e-4b7a-9c2d-5e4f3a2b1c0d"
    let first = try await sandbox.run(["order", "banana-juice", "--request-id", id])
    #expect(first.status == 0, "\(first)")
    let reused = try await sandbox.run([
      "--lang", "en", "order", "kiwi-juice", "--request-id", id,
    ])
    #expect(reused.status == 64, "\(reused)")
    #expect(reused.stderr.contains("(order banana-juice ×1, by main)"), "\(reused)")
  }
}
