import Foundation
import Testing

/// The line shop's input: lines are capped, and input that cannot be read is an error,
/// not the end of input.
struct ShopInputTests {
  /// A line over 4 KiB is skipped with a message, and the lines after it still count,
  /// also when its line break comes reads later.
  @Test(arguments: [4097, 5000, 200_000])
  func anOverLongLineIsSkippedAndTheShopGoesOn(length: Int) async throws {
    let sandbox = try Sandbox()
    let long = String(repeating: "x", count: length)
    let outcome = try await sandbox.run(
      ["--lang", "en", "shop", "--plain"], input: long + "\n2\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.errorLines == ["That line is longer than 4096 bytes; it was skipped."])
    #expect(outcome.stdout.contains("Here is your Banana Juice. Enjoy!"))
    #expect(!outcome.stdout.contains("xxxx") && !outcome.stderr.contains("xxxx"))
  }

  /// The cap counts bytes of a line as written, its line break aside.
  @Test func aLineOfExactly4KiBIsRead() async throws {
    let sandbox = try Sandbox()
    let name = "banana-juice" + String(repeating: " ", count: 4096 - 12)
    let outcome = try await sandbox.run(
      ["--lang", "en", "shop", "--plain"], input: name + "\r\nq\n")
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stdout.contains("Here is your Banana Juice. Enjoy!"), "\(outcome)")
  }

  /// The last line may end without a line break, and a long one still does not grow.
  @Test func anOverLongLastLineWithoutALineBreakIsSkipped() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(
      ["--lang", "en", "shop", "--plain"], input: "2\n" + String(repeating: "y", count: 70_000))
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.errorLines == ["That line is longer than 4096 bytes; it was skipped."])
    #expect(outcome.stdout.contains("Here is your Banana Juice. Enjoy!"))
  }

  /// Standard input that fails to read (a directory) ends the shop with exit 74 and says
  /// why, where it used to end as if the input had ended.
  @Test func unreadableInputEndsWith74() async throws {
    let sandbox = try Sandbox()
    let binary = try #require(Paths.binary)
    let outcome = try await sandbox.run(
      ["-c", #"exec "$0" --store "$1" --lang en shop --plain < /"#, binary.path, sandbox.store],
      useStore: false, binary: URL(fileURLWithPath: "/bin/sh"))
    #expect(outcome.status == 74, "\(outcome)")
    #expect(outcome.errorLines.last?.hasPrefix("The input cannot be read: ") == true, "\(outcome)")
  }
}
