import Foundation
import Testing

struct OrderCommandTests {
  @Test func secondStrawberryBananaJuiceOnAFreshStoreIsRefusedAndChangesNothing() async throws {
    let sandbox = try Sandbox()
    let first = try await sandbox.run(["order", "strawberry-banana-juice"])
    #expect(first.status == 0, "\(first)")
    #expect(first.stdout == "Here is your Strawberry Banana Juice. Enjoy!\n")
    #expect(first.stderr == "")
    let afterFirst = try await sandbox.stock()
    #expect(afterFirst == ["strawberry": 0, "banana": 9, "pineapple": 10, "kiwi": 10, "mango": 10])

    let second = try await sandbox.run(["order", "strawberry-banana-juice"])
    #expect(second.status == 1, "\(second)")
    #expect(second.stdout == "")
    #expect(second.stderr == "Not enough fruit. Edit the stock? Missing: 10 more strawberries.\n")
    #expect(try await sandbox.stock() == afterFirst)
  }

  @Test func koreanOrderPrintsTheKoreanMessages() async throws {
    let sandbox = try Sandbox()
    let made = try await sandbox.run(["--lang", "ko", "order", "strawberry-banana-juice"])
    #expect(made.status == 0, "\(made)")
    #expect(made.stdout == "딸바쥬스 나왔습니다! 맛있게 드세요!\n")
    #expect(made.stderr == "")
    let refused = try await sandbox.run(["--lang", "ko", "order", "딸바쥬스"])
    #expect(refused.status == 1, "\(refused)")
    #expect(refused.stdout == "")
    #expect(refused.stderr == "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 10개\n")
  }

  @Test func countMakesSeveralAtOnce() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["order", "kiwi-juice", "--count", "2"])
    #expect(english.status == 0, "\(english)")
    #expect(english.stdout == "Here are 2 cups of Kiwi Juice. Enjoy!\n")
    let korean = try await sandbox.run(["--lang", "ko", "order", "--count=2", "mango-juice"])
    #expect(korean.status == 0, "\(korean)")
    #expect(korean.stdout == "망고쥬스 2잔 나왔습니다! 맛있게 드세요!\n")
    #expect(
      try await sandbox.stock() == [
        "strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 4, "mango": 4,
      ])
  }

  @Test func refusalNamesEveryShortFruitAndWithdrawsNothing() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["strawberry": 3, "banana": 0])
    let english = try await sandbox.run(["order", "strawberry-banana-juice", "--count", "2"])
    #expect(english.status == 1, "\(english)")
    #expect(english.stdout == "")
    #expect(
      english.stderr
        == "Not enough fruit. Edit the stock? Missing: 17 more strawberries, 2 more bananas.\n")
    let korean = try await sandbox.run([
      "--lang", "ko", "order", "strawberry-banana-juice", "--count", "2",
    ])
    #expect(korean.stderr == "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 17개, 바나나 2개\n")
    #expect(
      try await sandbox.stock() == [
        "strawberry": 3, "banana": 0, "pineapple": 10, "kiwi": 10, "mango": 10,
      ])
  }

  @Test func oneShortFruitKeepsTheOthersInStock() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["strawberry": 25, "banana": 1])
    let outcome = try await sandbox.run(["order", "strawberry-banana-juice", "--count", "2"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr == "Not enough fruit. Edit the stock? Missing: 1 more banana.\n")
    let stock = try await sandbox.stock()
    #expect(stock["strawberry"] == 25)
    #expect(stock["banana"] == 1)
  }

  @Test(arguments: [
    "strawberry-banana-juice", "Strawberry Banana Juice", "strawberry banana juice",
    "STRAWBERRYBANANAJUICE", "  Strawberry  Banana  Juice ", "딸바쥬스", "딸바 쥬스",
    "Strawberry-Banana-Juice",
  ])
  func juiceIsFoundByIdOrAnyNameIgnoringCaseAndSpaces(name: String) async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["--json", "order", name])
    #expect(outcome.status == 0, "\(outcome)")
    let document = try outcome.json()
    #expect(document.string("juice") == "strawberry-banana-juice")
  }

  /// A name written like an id but no juice's id is looked up in every language, though the
  /// command started with the user's language alone.
  @Test func aNameWrittenLikeAnIDIsFoundInAnotherLanguage() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "ko", "order", "strawberrybananajuice"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "딸바쥬스 나왔습니다! 맛있게 드세요!\n")
  }

  @Test func namesOfTheOtherLanguageWorkToo() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "ko", "order", "Banana Juice"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "바나나쥬스 나왔습니다! 맛있게 드세요!\n")
  }

  @Test func unknownJuiceIsAUsageErrorAndTouchesNothing() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["order", "grape-juice"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(
      outcome.stderr
        == "There is no juice “grape-juice” on the menu. Run juice-maker menu to see it.\n")
    #expect(try await sandbox.history().isEmpty)
  }

  @Test func ambiguousJuiceNameListsTheCandidates() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.ambiguous(in: sandbox)
    let outcome = try await sandbox.run(data + ["order", "berry mix"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(
      outcome.stderr
        == "“berry mix” could mean more than one: berry-blend, berry-mix. Use the id.\n")
    let json = try await sandbox.run(data + ["--json", "order", "Berry Mix"])
    #expect(json.status == 64, "\(json)")
    let document = try json.json()
    #expect(document.string("error") == "ambiguousName")
    #expect(document.bool("ok") == false)
    let byID = try await sandbox.run(data + ["order", "berry-mix"])
    #expect(byID.status == 0, "\(byID)")
    #expect(byID.stdout == "Here is your Berry Mix. Enjoy!\n")
  }

  @Test func shopNameIsRecordedInTheJournal() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "--shop", "downtown", "order", "kiwi-juice"])
    #expect(try outcome.json().string("shop") == "downtown")
    let history = try await sandbox.history()
    #expect(history.count == 1)
    #expect(history.first?.string("shop") == "downtown")
  }
}

/// `order JUICE --request-id ID`: an order sent again is made once.
struct RequestIDTests {
  @Test func anOrderSentTwiceIsMadeOnceAndReportsTheFirstOutcome() async throws {
    let sandbox = try Sandbox()
    let first = try await sandbox.run(["order", "banana-juice", "--request-id", "till-7-0001"])
    let second = try await sandbox.run(["order", "banana-juice", "--request-id", "till-7-0001"])
    #expect(first.status == 0, "\(first)")
    #expect(second.status == 0, "\(second)")
    #expect(second.stdout == first.stdout)
    #expect(try await sandbox.stock()["banana"] == 8)
    #expect(try await sandbox.history().count == 1)
  }

  @Test(arguments: [[String](), ["--json"]])
  func anotherOrderUnderAUsedRequestIDIsRefusedAndMakesNothing(flags: [String]) async throws {
    let sandbox = try Sandbox()
    let first = try await sandbox.run(["order", "banana-juice", "--request-id", "X2"])
    #expect(first.status == 0, "\(first)")
    let reused = try await sandbox.run(
      flags + ["order", "kiwi-juice", "--count", "5", "--request-id", "X2"])
    #expect(reused.status == 64, "\(reused)")
    #expect(!reused.stdout.contains("Kiwi"), "\(reused)")
    let message = flags.isEmpty ? reused.stderr : reused.stdout + reused.stderr
    #expect(message.contains("X2") && message.contains("banana-juice"), "\(reused)")
    #expect(!message.contains("\"ok\":true") && !message.contains("\"ok\" : true"))
    #expect(try await sandbox.stock()["kiwi"] == 10)
    #expect(try await sandbox.stock()["banana"] == 8)
    #expect(try await sandbox.history().count == 1)
  }

  @Test func anOrderWithoutARequestIDGetsOneAndJSONShowsIt() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "order", "banana-juice"])
    #expect(outcome.status == 0, "\(outcome)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let id = try #require(document["requestID"] as? String)
    let again = try await sandbox.run(["order", "banana-juice", "--request-id", id])
    #expect(again.status == 0, "\(again)")
    #expect(try await sandbox.stock()["banana"] == 8)
  }

  @Test(arguments: ["", "has space", String(repeating: "x", count: 129), "줄"])
  func aBadRequestIDIsAUsageError(id: String) async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--json", "order", "banana-juice", "--request-id", id])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(try await sandbox.stock()["banana"] == 10)
  }
}
