import Foundation
import Testing

/// Stores are created on purpose: `init` makes one, every other command refuses a store that
/// `--store` or `JUICE_MAKER_STORE` names but no one created, and only the per-user default
/// store is made on first use, saying so.
struct InitCommandTests {
  /// Every command that opens the store, with input for the shop.
  static let storeCommands: [[String]] = [
    ["stock"], ["menu"], ["order", "kiwi-juice"], ["stock", "add", "kiwi", "5"],
    ["stock", "set", "kiwi", "3", "--if-stock", "10"], ["history"], ["shop", "--plain"],
    ["rush", "--shops", "2", "--orders", "5"],
  ]

  @Test(arguments: storeCommands)
  func aMistypedStorePathIsRefusedAndNothingIsCreated(arguments: [String]) async throws {
    let sandbox = try Sandbox()
    let typo = sandbox.path("shops/stroe.sqlite")
    let outcome = try await sandbox.run(
      ["--store", typo] + arguments, input: "1\nq\n", useStore: false)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(outcome.stdout == "", "\(outcome)")
    #expect(
      outcome.stderr
        == "No store at \(typo) (No such file or directory). Create one with: juice-maker init --store \(typo)\n"
    )
    if arguments.first != "shop" {
      let json = try await sandbox.run(["--store", typo, "--json"] + arguments, useStore: false)
      #expect(json.status == 65, "\(json)")
      #expect(try json.json().string("error") == "storeMissing", "\(json)")
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("shops")))
    #expect(!FileManager.default.fileExists(atPath: sandbox.path("state")))
    #expect(try await sandbox.stock() == freshStock)
  }

  @Test func aStoreTheEnvironmentNamesMustExistToo() async throws {
    let sandbox = try Sandbox()
    let typo = sandbox.path("stroe.sqlite")
    let outcome = try await sandbox.run(
      ["--lang", "ko", "order", "kiwi-juice"], environment: ["JUICE_MAKER_STORE": typo],
      useStore: false)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(
      outcome.stderr
        == "\(typo)에 재고가 없어요 (No such file or directory). 이렇게 만드세요: juice-maker init --store \(typo)\n"
    )
    #expect(!FileManager.default.fileExists(atPath: typo))
  }

  @Test func theSuggestedCommandIsQuotedForTheShell() async throws {
    let sandbox = try Sandbox()
    let path = sandbox.path("my shop's/store.sqlite")
    let outcome = try await sandbox.run(["--store", path, "stock"], useStore: false)
    #expect(outcome.status == 65, "\(outcome)")
    let quoted = "'" + path.replacing("'", with: #"'\''"#) + "'"
    #expect(outcome.stderr.hasSuffix("Create one with: juice-maker init --store \(quoted)\n"))
    // The suggestion works as printed.
    let binary = try #require(Paths.binary)
    let suggestion = try #require(outcome.stderr.split(separator: "with: ").last)
      .replacing("juice-maker", with: "'\(binary.path)'", maxReplacements: 1)
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", String(suggestion.dropLast()) + " > /dev/null"]
    shell.environment = sandbox.baseEnvironment
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)
    let stock = try await sandbox.run(["--store", path, "--json", "stock"], useStore: false)
    #expect(stock.status == 0, "\(stock)")
  }

  @Test func anEmptyFileIsNoStoreAndIsLeftEmpty() async throws {
    let sandbox = try Sandbox()
    let empty = sandbox.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let outcome = try await sandbox.run(["--store", empty, "order", "kiwi-juice"], useStore: false)
    #expect(outcome.status == 65, "\(outcome)")
    #expect(
      outcome.stderr
        == "No store at \(empty) (the file holds no store yet). Create one with: juice-maker init --store \(empty)\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
    let created = try await sandbox.run(["--store", empty, "init"], useStore: false)
    #expect(created.status == 0, "\(created)")
  }

  @Test func initCreatesTheStoreAndASecondInitLeavesItUnchanged() async throws {
    let sandbox = try Sandbox(.absent)
    let created = try await sandbox.run(["init"])
    #expect(created.status == 0, "\(created)")
    #expect(
      created.lines == [
        "Created the store \(sandbox.store) with the initial stock:", "  strawberries  10",
        "  bananas       10", "  pineapples    10", "  kiwis         10", "  mangoes       10",
      ], "\(created)")
    #expect(created.stderr == "")
    let mode = try FileManager.default.attributesOfItem(atPath: sandbox.store)[.posixPermissions]
    #expect(mode as? Int == 0o600)
    #expect(try await sandbox.stock() == freshStock)
    #expect(try await sandbox.run(["stock", "add", "kiwi", "5"]).status == 0)

    let bytes = Self.bytes(of: sandbox.store)
    let again = try await sandbox.run(["init"])
    #expect(again.status == 65, "\(again)")
    #expect(again.stdout == "")
    #expect(
      again.stderr == "There is a store at \(sandbox.store) already; init left it unchanged.\n")
    let korean = try await sandbox.run(["--lang", "ko", "init"])
    #expect(korean.stderr == "\(sandbox.store)에 이미 재고가 있어요. init은 그대로 두었어요.\n")
    let json = try await sandbox.run(["--json", "init"])
    #expect(json.status == 65, "\(json)")
    #expect(try json.json().string("error") == "storeExists", "\(json)")
    #expect(Self.bytes(of: sandbox.store) == bytes)
    var stock = freshStock
    stock["kiwi"] = 15
    #expect(try await sandbox.stock() == stock)
    #expect(try await sandbox.history().count == 1)
  }

  @Test func initCreatesMissingDirectoriesAndAnswersInJSON() async throws {
    let sandbox = try Sandbox(.absent)
    let path = sandbox.path("shops/downtown/store.sqlite")
    let created = try await sandbox.run(["--store", path, "--json", "init"], useStore: false)
    #expect(created.status == 0, "\(created)")
    let document = try created.json()
    #expect(document.bool("ok") == true)
    #expect(document.string("store") == path)
    #expect(
      document.objects("fruits").map { $0.string("id") }
        == ["strawberry", "banana", "pineapple", "kiwi", "mango"])
    #expect(document.objects("fruits").allSatisfy { $0.int("stock") == 10 })
    let mode = try FileManager.default.attributesOfItem(atPath: sandbox.path("shops"))[
      .posixPermissions]
    #expect(mode as? Int == 0o700)
  }

  @Test func initsRunAtOnceCreateOneStore() async throws {
    for trial in 1...4 {
      let sandbox = try Sandbox(.absent)
      let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
        for _ in 0..<4 {
          group.addTask { try await sandbox.run(["--json", "init"]) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(outcomes.map(\.status).sorted() == [0, 65, 65, 65], "trial \(trial): \(outcomes)")
      let errors = try outcomes.map { try $0.json() }.compactMap { $0.string("error") }
      #expect(errors == ["storeExists", "storeExists", "storeExists"], "trial \(trial)")
      #expect(try await sandbox.stock() == freshStock)
    }
  }

  @Test func theDefaultStoreIsCreatedOnFirstUseWithANotice() async throws {
    let sandbox = try Sandbox(.absent)
    let store = sandbox.path("state/juice-maker/store.sqlite")
    let first = try await sandbox.run(["order", "kiwi-juice"], useStore: false)
    #expect(first.status == 0, "\(first)")
    #expect(first.stdout == "Here is your Kiwi Juice. Enjoy!\n", "\(first)")
    #expect(
      first.stderr == "Created the default store \(store) with the menu's initial stock.\n")
    #expect(FileManager.default.fileExists(atPath: store))
    let second = try await sandbox.run(["order", "kiwi-juice"], useStore: false)
    #expect(second.status == 0, "\(second)")
    #expect(second.stderr == "", "\(second)")
    // init refuses the default store once it exists, as any other.
    let initAgain = try await sandbox.run(["init"], useStore: false)
    #expect(initAgain.status == 65, "\(initAgain)")
  }

  @Test func initMakesTheDefaultStoreWithoutTheFirstUseNotice() async throws {
    let sandbox = try Sandbox(.absent)
    let store = sandbox.path("state/juice-maker/store.sqlite")
    let created = try await sandbox.run(["init"], useStore: false)
    #expect(created.status == 0, "\(created)")
    #expect(created.lines.first == "Created the store \(store) with the initial stock:")
    #expect(created.stderr == "")
  }

  /// The bytes of a store file and of its write-ahead log, where an absent or empty log
  /// reads as `nil`: what a command that changes nothing leaves as it was.
  private static func bytes(of store: String) -> [Data?] {
    [store, store + "-wal"].map { file in
      FileManager.default.contents(atPath: file).flatMap { $0.isEmpty ? nil : $0 }
    }
  }
}
