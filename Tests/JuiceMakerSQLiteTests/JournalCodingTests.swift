import JuiceMakerKit
import Testing

@testable import JuiceMakerSQLite

struct JournalCodingTests {
  @Test(
    arguments: [
      ("{}", [:]),
      ("{\"banana\":-2}", ["banana": -2]),
      ("{\"strawberry\":-10,\"banana\":-1}", ["strawberry": -10, "banana": -1]),
      ("{ \"kiwi\" : 3 }", ["kiwi": 3]),
    ] as [(String, [Fruit.ID: Int])])
  func changesAreDecoded(text: String, changes: [Fruit.ID: Int]) {
    #expect(JournalCoding.changes(text) == changes)
  }

  @Test(arguments: [
    "", "{", "{\"kiwi\":}", "{\"kiwi\":1.5}", "{\"kiwi\":\"1\"}", "[1]", "{\"Kiwi\":1}",
    "{ \"a b\" : 1 }",
  ])
  func malformedChangesAreRejected(text: String) {
    #expect(JournalCoding.changes(text) == nil)
  }

  @Test(arguments: ["kiwi", "a-b", "x9"] as [Fruit.ID])
  func keysRoundTrip(fruit: Fruit.ID) {
    #expect(JournalCoding.changes("{" + JournalCoding.key(of: fruit) + "-7}") == [fruit: -7])
  }
}
