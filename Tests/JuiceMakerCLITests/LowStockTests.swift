import Foundation
import Testing

/// Minimum and par levels: `stock`, `stock --low`, `stock limits`, `reorder`, and the shop.
struct LowStockTests {
  @Test func stockMarksFruitsAtOrBelowTheirMinimum() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    _ = try await sandbox.run(["stock", "set", "kiwi", "3"], environment: environment)
    let all = try await sandbox.run(["stock"], environment: environment)
    #expect(all.status == 0, "\(all)")
    #expect(all.lines.contains("kiwis         3   low (minimum 3)"), "\(all)")
    #expect(all.lines.contains("mangoes       10"), "\(all)")
    let low = try await sandbox.run(["--lang", "ko", "stock", "--low"], environment: environment)
    #expect(low.lines == ["키위  3  부족 (최소 3개)"], "\(low)")
    let json = try await sandbox.run(["--json", "stock", "--low"], environment: environment)
    let fruits = try json.json().objects("fruits")
    #expect(fruits.map { $0.string("id") } == ["kiwi"])
    #expect(fruits.first?.int("min") == 3 && fruits.first?.int("par") == 10)
    let none = try await sandbox.run(["stock", "--low"])
    #expect(none.lines == ["No fruit is at or below its minimum."], "\(none)")
  }

  @Test func aStoresLimitsAreJournaledAndOverrideThePack() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let set = try await sandbox.run(
      ["stock", "limits", "mango", "--min", "4"], environment: environment)
    #expect(set.lines == ["mango: minimum 4, par 10"], "\(set)")
    let raised = try await sandbox.run(
      ["--json", "stock", "limits", "kiwi", "--par", "30"], environment: environment)
    #expect(try raised.json().int("min") == 3 && raised.json().int("par") == 30)
    _ = try await sandbox.run(["stock", "set", "mango", "4"], environment: environment)
    let low = try await sandbox.run(["--json", "stock", "--low"], environment: environment)
    #expect(try low.json().objects("fruits").map { $0.string("id") } == ["mango"])
    let history = try await sandbox.run(["history", "--limit", "3"], environment: environment)
    #expect(history.stdout.contains("limits  kiwi"), "\(history)")
    #expect(history.stdout.contains("minimum 3, par 30"), "\(history)")
  }

  @Test(arguments: [
    (["stock", "limits", "kiwi"], "missingArgument"),
    (["stock", "limits", "kiwi", "--min", "5", "--par", "4"], "parBelowMinimum"),
    (["stock", "limits", "kiwi", "--min", "-1"], "negative"),
    (["stock", "--min", "3"], "optionNotApplicable"),
    (["stock", "add", "kiwi", "1", "--par", "3"], "optionNotApplicable"),
    (["stock", "--low", "set", "kiwi", "1"], "optionNotApplicable"),
    (["stock", "limits", "dragonfruit", "--min", "1"], "unknownFruit"),
  ])
  func badLimitsAreOneMessageAndChangeNothing(arguments: [String], code: String) async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    let outcome = try await sandbox.run(["--json"] + arguments, environment: environment)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(try outcome.json().string("error") == code, "\(outcome)")
    let history = try await sandbox.run(["--json", "history"], environment: environment)
    #expect(try history.json().objects("entries").isEmpty)
  }

  @Test func reorderListsWhatToBuyToReachPar() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    _ = try await sandbox.run(["stock", "set", "kiwi", "2"], environment: environment)
    let text = try await sandbox.run(["reorder"], environment: environment)
    #expect(text.status == 0, "\(text)")
    #expect(
      text.lines == [
        "Fruit       Stock  Min  Par  Buy",
        "strawberry     10    4   20   10",
        "banana         10    3   12    2",
        "kiwi (low)      2    3   10    8",
      ], "\(text)")
    let csv = try await sandbox.run(["reorder", "--csv"], environment: environment)
    #expect(
      csv.stdout
        == "fruit,name,stock,min,par,buy,low\r\nstrawberry,strawberry,10,4,20,10,no\r\n"
        + "banana,banana,10,3,12,2,no\r\nkiwi,kiwi,2,3,10,8,yes\r\n")
    let json = try await sandbox.run(["--json", "reorder"], environment: environment)
    let kiwi = try #require(json.json().objects("fruits").last)
    #expect(kiwi.int("buy") == 8 && kiwi.bool("low") == true)
    let both = try await sandbox.run(["--json", "reorder", "--csv"], environment: environment)
    #expect(both.status == 64)
    let nothing = try await sandbox.run(["reorder"])
    #expect(nothing.lines == ["Every fruit is at or above its par level: nothing to reorder."])
  }

  @Test func theLineShopMarksLowFruits() async throws {
    let sandbox = try Sandbox()
    let environment = try sandbox.writeChainMenu()
    _ = try await sandbox.run(["stock", "set", "kiwi", "1"], environment: environment)
    let outcome = try await sandbox.run(["shop"], input: "q\n", environment: environment)
    #expect(outcome.stdout.contains("kiwi 1 (low)"), "\(outcome)")
  }
}
