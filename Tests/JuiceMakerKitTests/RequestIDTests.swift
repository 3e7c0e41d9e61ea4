import JuiceMakerKit
import Testing

struct RequestIDTests {
  @Test func randomIDsAreDistinctVersionFourUUIDs() throws {
    let ids = (0..<10_000).map { _ in RequestID.random() }
    #expect(Set(ids).count == ids.count)
    for id in ids.prefix(100) {
      #expect(
        id.rawValue.wholeMatch(
          of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil,
        "\(id)")
      #expect(try RequestID(validating: id.rawValue) == id)
    }
  }

  @Test(arguments: [
    ("", IdentifierError.Reason.empty),
    (String(repeating: "x", count: 129), .tooLong(maximum: 128)),
    ("has space", .invalidCharacter),
    ("tab\t", .invalidCharacter),
    ("caf\u{E9}", .invalidCharacter),
  ])
  func invalidTextIsRefusedWithItsReason(text: String, reason: IdentifierError.Reason) {
    #expect(throws: IdentifierError(text: text, reason: reason)) {
      try RequestID(validating: text)
    }
  }

  @Test(arguments: ["a", "order-42", String(repeating: "~", count: 128)])
  func printableASCIIUpTo128BytesIsAccepted(text: String) throws {
    #expect(try RequestID(validating: text).rawValue == text)
  }
}
