import Foundation
import Testing

struct MenuCommandTests {
  @Test func menuShowsEachJuiceWithRecipeAndMakeableCountInEnglish() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["menu"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr == "")
    #expect(
      outcome.lines == [
        "Strawberry Juice         strawberries 16  0 can be made",
        "Banana Juice             bananas 2  5 can be made",
        "Kiwi Juice               kiwis 3  3 can be made",
        "Pineapple Juice          pineapples 2  5 can be made",
        "Strawberry Banana Juice  strawberries 10, banana 1  1 can be made",
        "Mango Juice              mangoes 3  3 can be made",
        "Mango Kiwi Juice         mangoes 2, kiwi 1  5 can be made",
      ])
  }

  @Test func menuShowsEachJuiceWithRecipeAndMakeableCountInKorean() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "ko", "menu"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.lines == [
        "딸기쥬스      딸기 16  0잔 가능",
        "바나나쥬스    바나나 2  5잔 가능",
        "키위쥬스      키위 3  3잔 가능",
        "파인애플쥬스  파인애플 2  5잔 가능",
        "딸바쥬스      딸기 10, 바나나 1  1잔 가능",
        "망고쥬스      망고 3  3잔 가능",
        "망키쥬스      망고 2, 키위 1  5잔 가능",
      ])
  }

  @Test func makeableCountsFollowTheStock() async throws {
    let sandbox = try Sandbox()
    await sandbox.setStock(["strawberry": 33, "banana": 2, "kiwi": 0])
    let outcome = try await sandbox.run(["--json", "menu"])
    #expect(outcome.status == 0, "\(outcome)")
    let juices = try outcome.json().objects("juices")
    var makeable: [String: Int] = [:]
    for juice in juices {
      makeable[try #require(juice.string("id"))] = juice.int("makeable")
    }
    #expect(
      makeable == [
        "strawberry-juice": 2, "banana-juice": 1, "kiwi-juice": 0, "pineapple-juice": 5,
        "strawberry-banana-juice": 2, "mango-juice": 3, "mango-kiwi-juice": 0,
      ])
  }

  /// A menu large enough to be worded on every core, in several batches, lists each juice
  /// once, in menu order, with its own name, recipe and count, as `--json` gives them.
  @Test func aLargeMenuListsEachJuiceInMenuOrder() async throws {
    let sandbox = try Sandbox()
    let given = sandbox.directory.appending(path: "given")
    try FileManager.default.createDirectory(at: given, withIntermediateDirectories: true)
    let fruits = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
    let juices = (0..<2_500).map { index in
      var ingredients = [#"{"fruit": "\#(fruits[index % 5])", "count": \#(1 + index % 7)}"#]
      if index % 2 == 1 {
        ingredients.append(#"{"fruit": "\#(fruits[(index + 2) % 5])", "count": \#(1 + index % 3)}"#)
      }
      return #"{"id": "big-\#(index)", "ingredients": [\#(ingredients.joined(separator: ", "))]}"#
    }
    try Data(#"{"juices": [\#(juices.joined(separator: ",\n"))]}"#.utf8)
      .write(to: given.appending(path: "big.json"))
    let text = try await sandbox.run(["--recipes", given.path, "menu"])
    let json = try await sandbox.run(["--recipes", given.path, "--json", "menu"])
    #expect(text.status == 0, "\(text)")
    let listed = try json.json()["juices"] as? [[String: Any]] ?? []
    try #require(listed.count == 2_507, "\(json)")
    try #require(text.lines.count == listed.count, "\(text.lines.count) lines")
    var wrong: [String] = []
    for (line, juice) in zip(text.lines, listed) {
      let name = juice["name"] as? String ?? ""
      let makeable = juice["makeable"] as? Int ?? -1
      let counts = (juice["ingredients"] as? [[String: Any]] ?? []).map { $0["count"] as? Int }
      // "big-7   pineapple 1, mangoes 2  5 can be made"
      let columns = line.split(separator: "  ", omittingEmptySubsequences: true)
      let recipe = columns.dropFirst().first?.split(separator: ", ") ?? []
      let recipeCounts = recipe.map { $0.split(separator: " ").last.flatMap { Int($0) } }
      if !line.hasPrefix(name + " ") || !line.hasSuffix("  \(makeable) can be made")
        || recipeCounts != counts
      {
        wrong.append(line)
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count) lines differ from --json, first: \(wrong.prefix(3))")
  }

  @Test func menuTakesNoArguments() async throws {
    let sandbox = try Sandbox()
    let outcome = await sandbox.runInProcess(["menu", "kiwi"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr == "Unexpected argument “kiwi” for menu.\n")
  }
}
