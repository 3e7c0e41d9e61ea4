import JuiceMakerKit
import Testing

/// The id rule of fruits and juices lives on the id types.
struct IdentifierTests {
  @Test(arguments: [
    ("", IdentifierError.Reason.empty),
    ("Kiwi", .invalidCharacter),
    ("9-lives", .invalidCharacter),
    ("-kiwi", .invalidCharacter),
    ("kiwi juice", .invalidCharacter),
    (String(repeating: "k", count: 129), .tooLong(maximum: 128)),
  ])
  func invalidIDsAreRefused(text: String, reason: IdentifierError.Reason) {
    #expect(throws: IdentifierError(text: text, reason: reason)) { try Fruit.ID(validating: text) }
    #expect(throws: IdentifierError(text: text, reason: reason)) { try Juice.ID(validating: text) }
  }

  @Test(arguments: ["kiwi", "mango-kiwi-juice", "x9", String(repeating: "k", count: 128)])
  func validIDsKeepTheirText(text: String) throws {
    #expect(try Fruit.ID(validating: text).rawValue == text)
    #expect(try Juice.ID(validating: text).rawValue == text)
  }
}
