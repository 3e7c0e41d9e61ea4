import JuiceMakerKit
import Testing

struct ControlCharacterEscapingTests {
  @Test(arguments: [
    ("kiwi\u{1B}[2J", #"kiwi\u{1B}[2J"#),
    ("a\u{0}b", #"a\u{0}b"#),
    ("tab\there\nnext", #"tab\u{9}here\u{A}next"#),
    ("del\u{7F}", #"del\u{7F}"#),
    ("c1\u{9B}31m", #"c1\u{9B}31m"#),
    ("\u{85}", #"\u{85}"#),
  ])
  func controlCharactersBecomeVisibleEscapes(text: String, expected: String) {
    #expect(text.escapingControlCharacters() == expected)
  }

  @Test(arguments: ["딸기", "Strawberry Banana Juice", "", "¡Piña!", "🍓", "\u{A0}"])
  func printableTextIsKept(text: String) {
    #expect(text.escapingControlCharacters() == text)
  }
}
