import Foundation
import Testing

/// With `--json`, standard output holds exactly one JSON document whatever the outcome, and
/// standard error stays empty.
struct JSONShapeTests {
  @Test func stockDocumentListsEveryFruit() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "--lang", "ko", "stock"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let fruits = try outcome.json().objects("fruits")
    #expect(
      fruits.map { $0.string("id") } == ["strawberry", "banana", "pineapple", "kiwi", "mango"])
    #expect(fruits.map { $0.string("name") } == ["딸기", "바나나", "파인애플", "키위", "망고"])
    #expect(fruits.map { $0.int("stock") } == [10, 10, 10, 10, 10])
  }

  @Test func menuDocumentListsEveryJuiceWithItsRecipe() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "menu"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let juices = try outcome.json().objects("juices")
    #expect(
      juices.map { $0.string("id") } == [
        "strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice",
        "strawberry-banana-juice", "mango-juice", "mango-kiwi-juice",
      ])
    #expect(
      juices.map { $0.string("name") } == [
        "Strawberry Juice", "Banana Juice", "Kiwi Juice", "Pineapple Juice",
        "Strawberry Banana Juice", "Mango Juice", "Mango Kiwi Juice",
      ])
    #expect(juices.map { $0.int("makeable") } == [0, 5, 3, 5, 1, 3, 5])
    let mixed = try #require(juices.first { $0.string("id") == "strawberry-banana-juice" })
    let ingredients = mixed.objects("ingredients")
    #expect(ingredients.map { $0.string("fruit") } == ["strawberry", "banana"])
    #expect(ingredients.map { $0.int("count") } == [10, 1])
  }

  @Test func orderMadeDocumentHasTheMessageAndTheStockLeft() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run([
      "--json", "--lang", "ko", "order", "strawberry-banana-juice",
    ])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let document = try outcome.json()
    #expect(document.bool("ok") == true)
    #expect(document.string("juice") == "strawberry-banana-juice")
    #expect(document.int("count") == 1)
    #expect(document.string("shop") == "main")
    #expect(document.string("message") == "딸바쥬스 나왔습니다! 맛있게 드세요!")
    #expect(
      document.counts("stock") == [
        "strawberry": 0, "banana": 9, "pineapple": 10, "kiwi": 10, "mango": 10,
      ])
  }

  @Test func orderRefusedDocumentListsEveryShortage() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["strawberry": 4, "banana": 1])
    let outcome = try await sandbox.run([
      "--json", "order", "strawberry-banana-juice", "--count", "3",
    ])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr == "")
    let document = try outcome.json()
    #expect(document.bool("ok") == false)
    #expect(document.string("error") == "outOfStock")
    #expect(
      document.string("message")
        == "Not enough fruit. Edit the stock? Missing: 26 more strawberries, 2 more bananas.")
    let shortages = document.objects("shortages")
    #expect(shortages.map { $0.string("fruit") } == ["strawberry", "banana"])
    #expect(shortages.map { $0.int("needed") } == [30, 3])
    #expect(shortages.map { $0.int("available") } == [4, 1])
    #expect(shortages.map { $0.int("missing") } == [26, 2])
  }

  @Test func stockEditDocumentHasTheNewLevel() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "stock", "add", "키위", "5"])
    #expect(outcome.status == 0, "\(outcome)")
    let document = try outcome.json()
    #expect(document.bool("ok") == true)
    #expect(document.string("fruit") == "kiwi")
    #expect(document.int("stock") == 15)
    #expect(document.objects("fruits").map { $0.int("stock") } == [10, 10, 10, 15, 10])
  }

  @Test(
    arguments: [
      (["frobnicate"], "unknownCommand", 64),
      (["--frobnicate", "menu"], "unknownOption", 64),
      (["--json=yes", "menu"], "unexpectedValue", 64),
      (["order", "kiwi-juice", "--count"], "missingValue", 64),
      (["menu", "--count", "2"], "optionNotApplicable", 64),
      (["order"], "missingArgument", 64),
      (["order", "kiwi-juice", "--count", "two"], "notWholeNumber", 64),
      (["order", "kiwi-juice", "--count", "0"], "notPositive", 64),
      (["order", "kiwi-juice", "--count", "99999999999999999999"], "tooLarge", 64),
      (["stock", "set", "kiwi", "-4"], "negative", 64),
      (["order", "grape-juice"], "unknownJuice", 64),
      (["stock", "add", "grape", "1"], "unknownFruit", 64),
      (["stock", "add", "kiwi", "9223372036854775807"], "overflow", 64),
      (["stock", "remove", "kiwi", "11"], "outOfStock", 1),
      (["order", "strawberry-juice"], "outOfStock", 1),
    ] as [([String], String, Int32)])
  func errorDocumentHasItsCodeAndMessage(arguments: [String], code: String, status: Int32)
    async throws
  {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["--json"] + arguments)
    #expect(outcome.status == status, "\(outcome)")
    #expect(outcome.stderr == "")
    let document = try outcome.json()
    #expect(document.bool("ok") == false)
    #expect(document.string("error") == code)
    let message = try #require(document.string("message"))
    #expect(!message.isEmpty)
    #expect(!message.contains("\n"))
    // The same message is what standard error shows without --json.
    guard !arguments.contains(where: { $0.hasPrefix("--json") }) else { return }
    let text = await sandbox.runInProcess(arguments)
    #expect(text.stderr == message + "\n")
    #expect(text.stdout == "")
  }

  @Test func jsonOptionMayComeAfterTheCommand() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["stock", "--json"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(try outcome.json().objects("fruits").count == 5)
  }

  @Test func invalidPackDocumentListsTheProblems() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.brokenPack(in: sandbox)
    let outcome = try await sandbox.run(data + ["--json", "menu"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr == "")
    let document = try outcome.json()
    #expect(document.bool("ok") == false)
    #expect(document.string("error") == "invalidPacks")
    let problems = try #require(document["problems"] as? [String])
    #expect(problems.count == 1)
    #expect(problems.first?.contains("broken.json") == true)
  }

  @Test func invalidStoreDocumentNamesTheFile() async throws {
    let sandbox = try Sandbox()
    try "not a database".write(toFile: sandbox.store, atomically: true, encoding: .utf8)
    let outcome = try await sandbox.run(["--json", "stock"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stderr == "")
    let document = try outcome.json()
    #expect(document.string("error") == "invalidStore")
    #expect(document.string("message")?.contains(sandbox.store) == true)
  }
}
