import Testing

@testable import JuiceMakerCLI

struct KeyDecoderTests {
  @Test(
    arguments: [
      ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
      ("\u{1B}OA", .up), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[H", .home),
      ("\u{1B}[4~", .end), ("\u{1B}[3~", .delete), ("\u{1B}[1;5C", .right), ("\r", .enter),
      ("\n", .enter), ("\u{7F}", .backspace), ("\u{03}", .interrupt), ("\u{04}", .endOfInput),
      ("\u{0C}", .redraw), ("7", .character("7")), ("q", .character("q")),
      ("예", .character("예")), ("\u{1B}[200~", .unknown),
    ] as [(String, Key)])
  func bytesDecodeToTheirKey(bytes: String, key: Key) {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array(bytes.utf8)) == [key])
    #expect(!decoder.isWaiting)
  }

  @Test func aLoneEscapeIsTheEscapeKeyOnlyAfterTheTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.isWaiting)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.isWaiting)
  }

  @Test func aSequenceSplitAcrossReadsIsOneKey() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.feed(Array("[".utf8)) == [])
    #expect(decoder.feed(Array("6~j".utf8)) == [.pageDown, .character("j")])
  }

  @Test func utf8SplitAcrossReadsIsOneCharacter() {
    var decoder = KeyDecoder()
    let bytes = Array("딸".utf8)
    #expect(decoder.feed(bytes.prefix(2)) == [])
    #expect(decoder.feed(bytes.suffix(1)) == [.character("딸")])
  }

  @Test func severalKeysInOneReadComeInOrder() {
    var decoder = KeyDecoder()
    #expect(
      decoder.feed(Array("5\r\u{1B}[C\u{1B}[C\u{1B}\u{1B}[A".utf8)) == [
        .character("5"), .enter, .right, .right, .escape, .up,
      ])
  }

  @Test func invalidUTF8IsUnknownAndDecodingGoesOn() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0xFF, UInt8(ascii: "q")]) == [.unknown, .character("q")])
    #expect(decoder.feed([0xE3, 0x41]) == [.unknown, .character("A")])
  }
}
