import Testing

@testable import JuiceMakerCatalog

/// The JSON parser's string checks, and its skipping of values it is told not to build.
struct JSONParserTests {
  /// Strings that are not valid UTF-8, some of which a repair would rewrite to as many bytes.
  static let invalidStrings: [[UInt8]] = [
    [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0x41, 0xE2, 0x82],
    [0xF4, 0x90, 0x80, 0x80], [0x80, 0x41],
  ]

  @Test(arguments: invalidStrings)
  func aStringThatIsNotUTF8IsRefusedWhetherBuiltOrSkipped(bytes: [UInt8]) throws {
    let document = Array(#"{"a": {"b": ""#.utf8) + bytes + Array(#""}}"#.utf8)
    let built = try #require(throws: JSONParser.Failure.self) { try JSONParser.parse(document) }
    #expect(built.reason == "the string holds bytes that are not valid UTF-8")
    let skipped = try #require(throws: JSONParser.Failure.self) {
      try JSONParser.parseKeepingLastDuplicate(document, skippingAt: [1]) { _, _ in .null }
    }
    #expect(skipped == built)
  }

  @Test(
    arguments: [
      ("kiwi", "kiwi"), ("딸기", "딸기"), ("😀 and ü", "😀 and ü"), ("", ""), (#"a\u00e9\n"#, "aé\n"),
    ])
  func aValidStringIsKept(written: String, expected: String) throws {
    let root = try JSONParser.parse(Array("{\"a\": \"\(written)\"}".utf8))
    guard case .object(let members) = root.value, case .string(let value) = members[0].node.value
    else {
      Issue.record("not an object holding a string: \(root)")
      return
    }
    #expect(value == expected)
  }

  /// A failure's line and column count bytes from the start of its line, the first line's
  /// after a byte order mark.
  @Test(
    arguments: [
      ([0xEF, 0xBB, 0xBF] + Array(#"{"a": x}"#.utf8), 1, 7),
      ([0xEF, 0xBB, 0xBF] + Array("{\n  \"a\": tru}".utf8), 2, 8),
      (Array("{\r\n\"a\":\n\n  [1,,2]}".utf8), 4, 6),
    ])
  func aFailureNamesItsLineAndColumn(document: [UInt8], line: Int, column: Int) throws {
    let failure = try #require(throws: JSONParser.Failure.self) {
      try JSONParser.parse(document)
    }
    #expect((failure.line, failure.column) == (line, column))
  }

  /// The parser reads a string eight bytes at a time up to its first quote, backslash or
  /// control character: each is found wherever it falls in a word.
  @Test(arguments: 0..<20)
  func whatEndsOrBreaksAStringIsFoundAtAnyOffset(length: Int) throws {
    let plain = String(repeating: "a", count: length)
    func value(_ written: String) throws -> String? {
      let root = try JSONParser.parse(Array("{\"k\": \"\(written)\"}".utf8))
      guard case .object(let members) = root.value, case .string(let value) = members[0].node.value
      else { return nil }
      return value
    }
    #expect(try value(plain) == plain)
    #expect(try value(plain + #"\nbc"#) == plain + "\nbc")
    #expect(try value(plain + "é" + plain) == plain + "é" + plain)
    #expect(try value("é" + plain + #"\"q"#) == "é" + plain + "\"q")
    let control = Array("{\"k\": \"\(plain)".utf8) + [0x01] + Array("\"}".utf8)
    let controlFailure = try #require(throws: JSONParser.Failure.self) {
      try JSONParser.parse(control)
    }
    #expect(controlFailure.reason == "a control character (byte 0x1) must be escaped in a string")
    #expect(controlFailure.column == 8 + length)
    let invalid = Array("{\"k\": \"\(plain)".utf8) + [0xFF] + Array("bcdefghij\"}".utf8)
    let invalidFailure = try #require(throws: JSONParser.Failure.self) {
      try JSONParser.parse(invalid)
    }
    #expect(invalidFailure.reason == "the string holds bytes that are not valid UTF-8")
  }

  @Test(
    arguments: [
      #"{"a": {"b": [1, 2,]}}"#, #"{"a": {"b": tru}}"#, #"{"a": {"b" 1}}"#, #"{"a": {"b": 01}}"#,
      #"{"a": {"b": "\q"}}"#, #"{"a": {"b": 1}"#, #"{"a": {"b": "x"#,
      String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
      #"{"a": {"b": {"c": 1 "d": 2}}}"#,
    ])
  func aSkippedValueFailsWhereABuiltOneDoes(document: String) throws {
    let bytes = Array(document.utf8)
    let built = try #require(throws: JSONParser.Failure.self) { try JSONParser.parse(bytes) }
    let skipped = try #require(throws: JSONParser.Failure.self) {
      try JSONParser.parseKeepingLastDuplicate(bytes, skippingAt: [1]) { _, _ in .null }
    }
    #expect(skipped == built)
  }

  @Test func aSkippedValueStandsInWhereItWas() throws {
    let document = Array("{\"keep\": 1,\n \"skip\": {\"x\": [true, null, \"y\"]}}".utf8)
    let (root, _) = try JSONParser.parseKeepingLastDuplicate(document, skippingAt: [1]) {
      _, key in key == "skip" ? .string("skipped") : nil
    }
    guard case .object(let members) = root.value else {
      Issue.record("not an object: \(root)")
      return
    }
    #expect(members.map(\.key) == ["keep", "skip"])
    guard case .string("skipped") = members[1].node.value else {
      Issue.record("not the stand-in: \(members[1])")
      return
    }
    #expect(members[1].node.position == (2, 10))
    #expect(
      JSONParser.leadingString(
        Array(#" {"sourceLanguage": "ko", "strings": {}}"#.utf8), key: "sourceLanguage") == "ko")
    #expect(
      JSONParser.leadingString(
        Array(#"{"strings": {}, "sourceLanguage": "ko"}"#.utf8), key: "sourceLanguage") == nil)
  }
}
