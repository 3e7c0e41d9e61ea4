import Testing

@testable import JuiceMakerCLI

/// How the completion entry point reads the words of a line as typed into a shell.
struct ShellWordTests {
  @Test(arguments: [
    ("kiwi", "kiwi"),
    (#"my\ packs"#, "my packs"),
    ("'my packs'", "my packs"),
    (#""my packs""#, "my packs"),
    (#""a\"b\$c\d""#, #"a"b$c\d"#),
    (#"'a\b'"#, #"a\b"#),
    (#"'it'\''s'"#, "it's"),
    ("'unclosed", "unclosed"),
    ("--recipes=~/packs", "--recipes=~/packs"),
    ("$(touch pwned)", "$(touch pwned)"),
  ])
  func quotingIsRemovedAndNothingIsEvaluated(typed: String, read: String) {
    #expect(ShellWord.unquoted(typed, home: "/home/ana") == read)
  }

  @Test(arguments: [
    ("~", "/home/ana"),
    ("~/packs", "/home/ana/packs"),
    (#"~/my\ packs"#, "/home/ana/my packs"),
    ("~ana/packs", "~ana/packs"),
    ("'~/packs'", "~/packs"),
    (#"\~/packs"#, "~/packs"),
    ("a~/packs", "a~/packs"),
  ])
  func onlyAnUnquotedLeadingTildeIsHome(typed: String, read: String) {
    #expect(ShellWord.unquoted(typed, home: "/home/ana") == read)
  }

  @Test func withoutAHomeATildeStaysAsWritten() {
    #expect(ShellWord.unquoted("~/packs", home: nil) == "~/packs")
  }
}
