import Testing

struct StockCommandTests {
  @Test func stockListsEveryFruitInBothLanguages() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["stock"])
    #expect(english.status == 0, "\(english)")
    #expect(
      english.lines == [
        "strawberries  10", "bananas       10", "pineapples    10", "kiwis         10",
        "mangoes       10",
      ])
    #expect(english.stderr == "")
    let korean = try await sandbox.run(["--lang", "ko", "stock"])
    #expect(
      korean.lines == ["딸기      10", "바나나    10", "파인애플  10", "키위      10", "망고      10"])
  }

  @Test func addRemoveAndSetPrintTheNewLevel() async throws {
    let sandbox = try Sandbox()
    let added = try await sandbox.run(["stock", "add", "kiwi", "5"])
    #expect(added.status == 0, "\(added)")
    #expect(added.stdout == "kiwis: 15 in stock\n")
    #expect(added.stderr == "")
    let removed = try await sandbox.run(["--lang", "ko", "stock", "remove", "딸기", "4"])
    #expect(removed.status == 0, "\(removed)")
    #expect(removed.stdout == "딸기 재고: 6개\n")
    let set = try await sandbox.run(["stock", "set", "Mangoes", "0"])
    #expect(set.status == 0, "\(set)")
    #expect(set.stdout == "mangoes: 10 → 0 in stock\n")
    #expect(
      try await sandbox.stock() == [
        "strawberry": 6, "banana": 10, "pineapple": 10, "kiwi": 15, "mango": 0,
      ])
  }

  @Test func removingMoreThanTheStockIsRefusedWithExitOne() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["stock", "remove", "strawberry", "20"])
    #expect(english.status == 1, "\(english)")
    #expect(english.stdout == "")
    #expect(english.stderr == "Only 10 strawberries in stock, so 20 can't be removed.\n")
    let korean = try await sandbox.run(["--lang", "ko", "stock", "remove", "strawberry", "20"])
    #expect(korean.status == 1, "\(korean)")
    #expect(korean.stderr == "딸기가 10개뿐이라 20개를 뺄 수 없어요.\n")
    let json = try await sandbox.run(["--json", "stock", "remove", "kiwi", "11"])
    #expect(json.status == 1, "\(json)")
    let document = try json.json()
    #expect(document.bool("ok") == false)
    #expect(document.string("error") == "outOfStock")
    #expect(document.string("message") == "Only 10 kiwis in stock, so 11 can't be removed.")
    let shortages = document.objects("shortages")
    #expect(shortages.count == 1)
    #expect(shortages.first?.string("fruit") == "kiwi")
    #expect(shortages.first?.int("needed") == 11)
    #expect(shortages.first?.int("available") == 10)
    #expect(shortages.first?.int("missing") == 1)
    #expect(try await sandbox.stock() == freshStock)
  }

  @Test func singularNameWhenOneIsLeft() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["kiwi": 1])
    let outcome = try await sandbox.run(["stock", "remove", "kiwi", "2"])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr == "Only 1 kiwi in stock, so 2 can't be removed.\n")
  }

  @Test func refusedRemovalIsJournaled() async throws {
    let sandbox = try Sandbox()
    _ = try await sandbox.run(["stock", "remove", "kiwi", "11"])
    let history = try await sandbox.history()
    #expect(history.count == 1)
    #expect(history.first?.string("kind") == "remove")
    #expect(history.first?.string("subject") == "kiwi")
    #expect(history.first?.string("outcome") == "refused")
    #expect(history.first?.int("count") == 11)
    #expect(history.first?.counts("changes") == [:])
  }

  @Test(arguments: [
    (["stock", "add", "kiwi", "0"], "N must be at least 1, not 0."),
    (["stock", "add", "kiwi", "-1"], "N must be at least 1, not -1."),
    (["stock", "remove", "kiwi", "0"], "N must be at least 1, not 0."),
    (["stock", "set", "kiwi", "-1"], "N must not be negative, not -1."),
    (["stock", "add", "kiwi", "abc"], "N must be a whole number, not “abc”."),
    (["stock", "add", "kiwi", "1.5"], "N must be a whole number, not “1.5”."),
    (["stock", "set", "kiwi", "99999999999999999999"], "N is too large: 99999999999999999999."),
    (
      ["stock", "add", "kiwi", "9223372036854775807"],
      "Adding 9223372036854775807 to kiwi (stock 10) would overflow."
    ),
    (
      ["stock", "add", "grape", "1"],
      "There is no fruit “grape” in the store. Run juice-maker stock to see it."
    ),
    (["stock", "add", "kiwi"], "stock add needs N."),
    (["stock", "add"], "stock add needs FRUIT."),
    (["stock", "add", "kiwi", "1", "2"], "Unexpected argument “2” for stock add."),
    (["stock", "juggle", "kiwi", "1"], "Unexpected argument “juggle” for stock."),
  ])
  func badEditsAreUsageErrorsAndChangeNothing(arguments: [String], message: String) async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr == message + "\n")
    #expect(try await sandbox.stock() == freshStock)
    // A usage error keeps nothing, not even a journal entry (an overflowing add
    // is found inside the store's transaction and rolled back).
    let history = try await sandbox.history()
    #expect(history.isEmpty)
  }

  @Test(arguments: ["kiwi", "KIWI", " k i w i ", "kiwis", "Kiwis", "키위"])
  func fruitIsFoundByIdOrAnyNameIgnoringCaseAndSpaces(name: String) async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["stock", "add", name, "2"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "kiwis: 12 in stock\n")
  }

  /// `kiwis` is written like an id but is the English plural: in Korean it is looked up in
  /// every language, though the command started with Korean alone.
  @Test func aNameWrittenLikeAnIDIsFoundInAnotherLanguage() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "ko", "stock", "add", "kiwis", "2"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(try await sandbox.stock()["kiwi"] == 12)
  }

  @Test func ambiguousFruitNameListsTheCandidates() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.ambiguous(in: sandbox)
    let outcome = try await sandbox.run(data + ["--lang", "ko", "stock", "add", "라즈 베리", "1"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr == "“라즈 베리”는 여러 가지를 뜻할 수 있어요: lime, raspberry. id로 적어 주세요.\n")
    let byID = try await sandbox.run(data + ["stock", "add", "lime", "1"])
    #expect(byID.status == 0, "\(byID)")
    #expect(byID.stdout == "lime: 11 in stock\n")
  }

  @Test func setToTheSameLevelSucceeds() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["stock", "set", "kiwi", "10"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "kiwis: 10 → 10 in stock\n")
  }
}

/// `stock set FRUIT N --if-stock M`: a set based on a level seen earlier.
struct ConditionalSetTests {
  @Test func setWithTheCurrentLevelSucceeds() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["stock", "set", "kiwi", "5", "--if-stock", "10"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout == "kiwis: 10 → 5 in stock\n")
    #expect(try await sandbox.stock()["kiwi"] == 5)
  }

  @Test func setWithAStaleLevelIsRefusedWithTheCurrentOne() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["kiwi": 12])
    let outcome = try await sandbox.run(["--json", "stock", "set", "kiwi", "5", "--if-stock", "10"])
    #expect(outcome.status == 1, "\(outcome)")
    let document = try outcome.json()
    #expect(document.string("error") == "stockChanged")
    #expect(document.string("message")?.contains("12") == true, "\(outcome)")
    #expect(try await sandbox.stock()["kiwi"] == 12)
  }

  @Test func ifStockOnlyAppliesToSet() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["stock", "add", "kiwi", "5", "--if-stock", "10"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(try await sandbox.stock()["kiwi"] == 10)
  }
}
