import Foundation
import Testing

/// No traps for an operator: empty variables, a rush against a real store, bad shop names.
struct SafetyTests {
  @Test(
    arguments: [
      "JUICE_MAKER_STORE", "JUICE_MAKER_RECIPES", "JUICE_MAKER_LOCALIZATION", "JUICE_MAKER_LANG",
    ])
  func anEmptyVariableIsAnErrorLikeAnEmptyOption(variable: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["--json", "order", "kiwi-juice"], environment: [variable: ""], useStore: false)
    #expect(outcome.status == 64, "\(outcome)")
    let document = try outcome.json()
    #expect(document.string("error") == "emptyValue")
    #expect(document.string("message")?.contains(variable) == true, "\(outcome)")
    // Nothing was written to the default store either.
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("state/juice-maker/store.sqlite")))
  }

  @Test func rushIgnoresAnExportedStoreAndSaysItRunsInMemory() async throws {
    let sandbox = try Sandbox()
    let exported = sandbox.path("exported.sqlite")
    try await sandbox.initialize(exported)
    let seeded = try await sandbox.run(
      ["order", "kiwi-juice"], environment: ["JUICE_MAKER_STORE": exported], useStore: false)
    #expect(seeded.status == 0, "\(seeded)")
    let before = try Data(contentsOf: URL(fileURLWithPath: exported))
    let rush = try await sandbox.run(
      ["rush", "--shops", "2", "--orders", "50"], environment: ["JUICE_MAKER_STORE": exported],
      useStore: false)
    #expect(rush.status == 0, "\(rush)")
    #expect(rush.lines.first?.hasPrefix("Store: in memory") == true, "\(rush)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == before)
    let json = try await sandbox.run(
      ["--json", "rush", "--orders", "10"], environment: ["JUICE_MAKER_STORE": exported],
      useStore: false)
    #expect(try json.json()["store"] == nil, "\(json)")
  }

  @Test func rushWithStoreOnItsCommandLineUsesAndNamesIt() async throws {
    let sandbox = try Sandbox()
    let rush = try await sandbox.run(["--lang", "ko", "rush", "--shops", "2", "--orders", "20"])
    #expect(rush.status == 0, "\(rush)")
    #expect(rush.lines.first == "재고: \(sandbox.store) (러시의 주문과 재고 추가가 여기에 남아요).")
    #expect(try await sandbox.stock() != freshStock)
  }

  @Test(
    arguments: [
      ("   ", "empty"), ("", "emptyValue"), (String(repeating: "가", count: 65), "tooLong"),
      ("bad\u{1B}[2Jname", "controlCharacter"), ("tab\tname", "controlCharacter"),
    ])
  func badShopNamesAreRefused(name: String, reason: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "--shop", name, "order", "kiwi-juice"])
    #expect(outcome.status == 64, "\(outcome)")
    let code = try outcome.json().string("error")
    #expect(code == (reason == "emptyValue" ? "emptyValue" : "invalidShopName"), "\(outcome)")
    #expect(try await sandbox.stock() == freshStock)
  }

  @Test func shopNamesAreTrimmedAndMayBe64CharactersLong() async throws {
    let sandbox = try Sandbox()
    let long = String(repeating: "가", count: 64)
    for name in ["  east  ", long] {
      let outcome = try await sandbox.run(["--shop", name, "order", "kiwi-juice"])
      #expect(outcome.status == 0, "\(outcome)")
    }
    let shops = try await sandbox.history().compactMap { $0["shop"] as? String }
    #expect(shops == [long, "east"])
  }
}
