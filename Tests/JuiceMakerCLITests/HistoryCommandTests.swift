import Foundation
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

@testable import JuiceMakerCLI

struct HistoryCommandTests {
  @Test func emptyHistorySaysSo() async throws {
    let sandbox = try Sandbox()
    let english = try await sandbox.run(["history"])
    #expect(english.status == 0, "\(english)")
    #expect(english.stdout == "No orders or stock edits yet.\n")
    let korean = try await sandbox.run(["--lang", "ko", "history"])
    #expect(korean.stdout == "아직 주문이나 재고 수정이 없어요.\n")
    let json = try await sandbox.run(["--json", "history"])
    #expect(json.stdout == "{\"entries\":[],\"more\":0}\n")
  }

  @Test func aConflictShowsTheLevelItFound() async throws {
    let sandbox = try Sandbox()
    let stale = try await sandbox.run(["stock", "set", "kiwi", "7", "--if-stock", "4"])
    #expect(stale.status == 1, "\(stale)")
    let english = try await sandbox.run(["history"])
    #expect(english.rows.first?.hasSuffix("expected 4, found 10") == true, "\(english)")
    let json = try await sandbox.run(["--json", "history"])
    let entries = try #require(try json.json()["entries"] as? [[String: Any]])
    #expect(entries.first?["outcome"] as? String == "conflict")
    #expect(entries.first?["expected"] as? Int == 4)
    #expect(entries.first?["actual"] as? Int == 10)
  }

  @Test func historyIsNewestFirstWithOneLinePerOperation() async throws {
    let sandbox = try Sandbox()
    _ = await sandbox.runInProcess(["stock", "add", "banana", "3"])
    _ = await sandbox.runInProcess(["--shop", "east", "order", "strawberry-banana-juice"])
    _ = await sandbox.runInProcess(["order", "strawberry-banana-juice"])
    let english = try await sandbox.run(["history"])
    #expect(english.status == 0, "\(english)")
    // The time comes first: "2026-11-21 08:45:44+00:00", 25 columns and 2 spaces.
    let columns = english.rows.map { String($0.dropFirst(27)) }
    #expect(
      columns == [
        "main  order  Strawberry Banana Juice ×1  refused  Missing: 10 more strawberries.",
        "east  order  Strawberry Banana Juice ×1  done     banana -1, strawberries -10",
        "main  add    bananas ×3                  done     bananas +3",
      ])
    for line in english.rows {
      #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00:00  .*/) != nil, "\(line)")
    }
    let korean = try await sandbox.run(["--lang", "ko", "history", "--limit", "2"])
    #expect(
      korean.rows.dropLast().map { String($0.dropFirst(27)) } == [
        "main  주문  딸바쥬스 ×1  거절  모자란 재료: 딸기 10개",
        "east  주문  딸바쥬스 ×1  완료  바나나 -1, 딸기 -10",
      ])
    #expect(korean.lines.last == "1건 더 있어요… (--limit N으로 더 보기)")
  }

  @Test func columnsAlignByDisplayWidthWithKoreanShopNames() async throws {
    let sandbox = try Sandbox()
    _ = await sandbox.runInProcess(["--shop", "강남점", "order", "kiwi-juice"])
    _ = await sandbox.runInProcess(["--shop", "east", "order", "banana-juice"])
    let outcome = try await sandbox.run(["--lang", "ko", "history"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.rows.map { String($0.dropFirst(27)) } == [
        "east    주문  바나나쥬스 ×1  완료  바나나 -2",
        "강남점  주문  키위쥬스 ×1    완료  키위 -3",
      ])
  }

  @Test func timesAreLocalWithTheirOffsetAndUTCInJSON() async throws {
    let sandbox = try Sandbox()
    _ = await sandbox.runInProcess(["order", "kiwi-juice"])
    let seoul = try await sandbox.run(["history"], environment: ["TZ": "Asia/Seoul"])
    #expect(
      seoul.rows.first?.wholeMatch(of: /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+09:00  .*/) != nil,
      "\(seoul)")
    let json = try await sandbox.run(["--json", "history"], environment: ["TZ": "Asia/Seoul"])
    let time = try #require(json.json().objects("entries").first?.string("time"))
    #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(time)")
  }

  @Test func historyFiltersByShopAndTime() async throws {
    let sandbox = try Sandbox()
    _ = await sandbox.runInProcess(["--shop", "강남점", "order", "kiwi-juice"])
    _ = await sandbox.runInProcess(["--shop", "east", "order", "banana-juice"])
    _ = await sandbox.runInProcess(["stock", "add", "kiwi", "1"])
    let gangnam = try await sandbox.run(["--json", "history", "--shop", "강남점"])
    #expect(try gangnam.json().objects("entries").map { $0.string("shop") } == ["강남점"])
    let all = try await sandbox.history()
    #expect(all.count == 3)
    let recent = try await sandbox.run(["--json", "history", "--since", "1h"])
    #expect(try recent.json().objects("entries").count == 3)
    for future in ["2999-01-01", "2999-01-01 09:30", "2999-01-01T00:00:00+09:00"] {
      let none = try await sandbox.run(["--json", "history", "--since", future])
      #expect(try none.json().objects("entries").isEmpty, "\(future)")
    }
    let bad = try await sandbox.run(["--json", "history", "--since", "yesterday"])
    #expect(bad.status == 64, "\(bad)")
    #expect(try bad.json().string("error") == "invalidTime")
  }

  @Test func jsonHistoryHoldsEveryField() async throws {
    let sandbox = try Sandbox()
    _ = await sandbox.runInProcess(["stock", "set", "kiwi", "4"])
    _ = await sandbox.runInProcess(["order", "kiwi-juice", "--count", "2"])
    _ = await sandbox.runInProcess(["order", "kiwi-juice"])
    let outcome = try await sandbox.run(["--json", "history"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    let entries = try outcome.json().objects("entries")
    #expect(entries.map { $0.string("kind") } == ["order", "order", "set"])
    #expect(entries.map { $0.string("subject") } == ["kiwi-juice", "kiwi-juice", "kiwi"])
    #expect(entries.map { $0.int("count") } == [1, 2, 4])
    #expect(entries.map { $0.string("outcome") } == ["done", "refused", "done"])
    #expect(entries.map { $0.counts("changes") } == [["kiwi": -3], [:], ["kiwi": -6]])
    #expect(entries.map { $0.string("shop") } == ["main", "main", "main"])
    let ids = entries.compactMap { $0.int("id") }
    #expect(ids.count == 3)
    #expect(ids == ids.sorted(by: >))
    let formatter = ISO8601DateFormatter()
    for entry in entries {
      let time = try #require(entry.string("time"))
      let date = try #require(formatter.date(from: time), "\(time)")
      #expect(abs(date.timeIntervalSinceNow) < 600)
    }
  }

  @Test func historyShowsTwentyEntriesUnlessLimited() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["pineapple": 100])
    // 25 more operations in one shop session: 5 edits and 20 orders.
    let input = String(repeating: "s\n+ pineapple 1\nc\n4\n4\n4\n4\n", count: 5) + "q\n"
    let session = await sandbox.runInProcess(["shop"], input: input)
    #expect(session.status == 0, "\(session)")
    let standard = try await sandbox.run(["--json", "history"])
    let entries = try standard.json().objects("entries")
    #expect(entries.count == 20)
    let text = try await sandbox.run(["history"])
    // A header, 20 entries, and how many more there are.
    #expect(text.lines.count == 22)
    #expect(text.lines.last == "6 more… (--limit N shows more)")
    let limited = try await sandbox.run(["--json", "history", "--limit", "3"])
    #expect(try limited.json().objects("entries").count == 3)
    let everything = try await sandbox.history()
    #expect(everything.count == 26)
    #expect(everything.filter { $0.string("kind") == "add" }.count == 5)
    #expect(everything.filter { $0.string("outcome") == "done" }.count == 26)
    #expect(
      Array(everything.prefix(20)).map { $0.int("id") } == entries.map { $0.int("id") })
  }

  @Test(arguments: [
    ("0", "--limit must be at least 1, not 0."),
    ("-3", "--limit must be at least 1, not -3."),
    ("ten", "--limit must be a whole number, not “ten”."),
    ("99999999999999999999", "--limit is too large: 99999999999999999999."),
  ])
  func badLimitsAreUsageErrors(limit: String, message: String) async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["history", "--limit", limit])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stdout == "")
    #expect(outcome.stderr == message + "\n")
  }

  /// `history` reads the journal through the store, so any storage will do.
  @Test(arguments: ["memory", "sqlite"])
  func historyReadsTheJournalOfAnyStorage(storage: String) throws {
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerCLITests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let fruits = [Fruit(id: "kiwi", initialStock: 10), Fruit(id: "mango", initialStock: 10)]
    let store =
      storage == "memory"
      ? try FruitStore(stock: ["kiwi": 10, "mango": 10])
      : FruitStore(
        storage: try SQLiteStockStorage(path: directory.path + "/store.sqlite", fruits: fruits))
    try store.add(2, of: "kiwi", by: "east")
    #expect(throws: FruitStoreError.self) { try store.remove(20, of: "mango", by: "west") }
    try store.setStock(4, of: "mango", by: "west", expecting: 10)

    let strings = try StringCatalog(directory: Paths.localization)
    let output = CapturedOutput()
    let line = ParsedCommandLine.parse(
      ["history"], commands: Commands.all, global: GlobalOptions.all)
    let context = Context(
      global: try GlobalOptions(line, configuration: Configuration(environment: [:])),
      configuration: Configuration(environment: [:]), catalogFiles: [],
      strings: strings, texts: Texts(localizer: strings.localizer(for: "en")), output: output,
      errorOutput: CapturedOutput())
    try HistoryCommand(parsing: line, context: context).show(store, limit: 10)
    let columns = output.text.split(separator: "\n").dropFirst().map { String($0.dropFirst(27)) }
    #expect(
      columns == [
        "west  set     mangoes ×4   done     mangoes -6",
        "west  remove  mangoes ×20  refused  Missing: 10 more mangoes.",
        "east  add     kiwis ×2     done     kiwis +2",
      ])
  }
}
