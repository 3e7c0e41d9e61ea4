import Testing

/// A juice or fruit whose name is another juice's or fruit's id: `validate` reports it, and
/// the id always means its own juice or fruit.
struct NameIsAnotherIDTests {
  @Test func validateReportsANameThatIsAnotherID() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.namesThatAreOtherIDs(in: sandbox)
    let outcome = try await sandbox.run(data + ["--lang", "en", "validate"])
    #expect(outcome.status == 65, "\(outcome)")
    #expect(
      outcome.lines.contains(
        "error: [en] “kiwi-juice”, the name of melon-juice, is the id of another juice, "
          + "kiwi-juice. Ordering by it orders kiwi-juice."), "\(outcome)")
    #expect(
      outcome.lines.contains(
        "error: [en] “cantaloupe”, the name of melon, is the id of another fruit, "
          + "cantaloupe. Editing the stock by it edits cantaloupe."), "\(outcome)")
    #expect(
      outcome.lines.last == "Checked 7 fruits, 8 juices and 2 languages: 2 errors, 0 warnings.")
  }

  @Test func orderingByAnExactIDOrdersThatJuice() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.namesThatAreOtherIDs(in: sandbox)
    let outcome = try await sandbox.run(data + ["--json", "order", "kiwi-juice"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(try outcome.json().string("juice") == "kiwi-juice")
  }

  @Test func editingByAnExactIDEditsThatFruit() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.namesThatAreOtherIDs(in: sandbox)
    let outcome = try await sandbox.run(data + ["--json", "stock", "add", "cantaloupe", "1"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(try outcome.json().string("fruit") == "cantaloupe")
  }

  @Test func theLineShopTakesAnExactIDOverAName() async throws {
    let sandbox = try Sandbox()
    let data = try Fixtures.namesThatAreOtherIDs(in: sandbox)
    let outcome = try await sandbox.run(
      data + ["--lang", "en", "shop", "--plain"], input: "kiwi-juice\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("Here is your Kiwi Juice. Enjoy!"), "\(outcome)")
  }
}
