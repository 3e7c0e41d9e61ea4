import Foundation
import Testing

/// Prices from a chain's packs: on the menu, the shop screens, receipts and the journal.
struct PriceTests {
  @Test func menuShowsPricesForTheLanguage() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let english = try await sandbox.run(["menu"], environment: environment)
    #expect(english.status == 0, "\(english)")
    #expect(
      english.lines.first == "Strawberry Juice         ₩5,500  strawberries 16  0 can be made")
    let korean = try await sandbox.run(["--lang", "ko", "menu"], environment: environment)
    #expect(korean.lines.contains("망키쥬스      ₩5,500  망고 2, 키위 1  5잔 가능"), "\(korean)")
  }

  @Test func menuGivesExactPricesInJSON() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let outcome = try await sandbox.run(["--json", "menu"], environment: environment)
    #expect(outcome.status == 0, "\(outcome)")
    let juice = try #require(outcome.json().objects("juices").first)
    let price = try #require(juice.object("price"))
    #expect(price.string("amount") == "5500" && price.string("currency") == "KRW")
  }

  @Test func aMenuWithoutPricesShowsNoPriceColumn() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "menu"])
    #expect(try outcome.json().objects("juices").allSatisfy { $0["price"] == nil })
  }

  @Test func anOrdersReceiptTellsItsTotalAndTheJournalKeepsItsPrice() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let made = try await sandbox.run(
      ["order", "kiwi-juice", "--count", "2"], environment: environment)
    #expect(made.status == 0, "\(made)")
    #expect(made.lines == ["Here are 2 cups of Kiwi Juice. Enjoy! Total ₩9,000."])
    let json = try await sandbox.run(
      ["--json", "order", "banana-juice"], environment: environment)
    #expect(try json.json().object("total")?.string("amount") == "4000")
    let history = try await sandbox.run(["--json", "history"], environment: environment)
    let entries = try history.json().objects("entries")
    #expect(entries.map { $0.object("price")?.string("amount") } == ["4000", "4500"])
  }

  @Test func theLineShopShowsPricesAndReceipts() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let outcome = try await sandbox.run(["shop"], input: "2\nq\n", environment: environment)
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.lines.contains("  2) Banana Juice             ₩4,000  5 can be made"))
    #expect(outcome.stdout.contains("Here is your Banana Juice. Enjoy! Total ₩4,000."))
  }

  @Test func aBadPriceIsOneLocatedProblemAndChangesNothing() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let pack = sandbox.directory.appending(path: "config/juice-maker/recipes/juices.json")
    let text = ChainMenu.juices.replacing(#""price": "4000""#, with: #""price": "40.5""#)
    try text.write(to: pack, atomically: true, encoding: .utf8)
    // A user pack with a problem is skipped with a warning naming it; its juices are not sold.
    let outcome = try await sandbox.run(["order", "kiwi-juice"], environment: environment)
    #expect(outcome.status != 0, "\(outcome)")
    #expect(outcome.stderr.contains("juices[1].price: \"40.5\" has more decimals than KRW has"))
    let validate = try await sandbox.run(["validate"], environment: environment)
    #expect(validate.status == 65, "\(validate)")
    let history = try await sandbox.run(["--json", "history"])
    #expect(try history.json().objects("entries").isEmpty)
  }
}
