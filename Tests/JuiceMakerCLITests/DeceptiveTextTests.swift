import CSQLite
import Foundation
import Testing

/// Text that could look like other text: shop names are kept in one Unicode normalization
/// form, shop names with bidi controls or zero-width characters are refused, and such
/// characters are shown escaped wherever they appear.
struct DeceptiveTextTests {
  static let composed = "강남점"
  static let decomposed = "강남점".decomposedStringWithCanonicalMapping

  @Test func aShopNameInEitherNormalizationFormIsOneEditor() async throws {
    #expect(Array(Self.composed.unicodeScalars) != Array(Self.decomposed.unicodeScalars))
    let sandbox = try Sandbox()
    for name in [Self.decomposed, Self.composed] {
      let outcome = try await sandbox.run(["--shop", name, "order", "banana-juice"])
      #expect(outcome.status == 0, "\(outcome)")
    }
    let shops = try await sandbox.history().compactMap { $0.string("shop") }
    #expect(shops.count == 2)
    // Swift compares strings by canonical equivalence; the scalars tell the forms apart.
    #expect(shops.allSatisfy { Array($0.unicodeScalars) == Array(Self.composed.unicodeScalars) })
    for name in [Self.decomposed, Self.composed] {
      let outcome = try await sandbox.run(
        ["--json", "--shop", name, "history", "--limit", "10"])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(try outcome.json().objects("entries").count == 2, "history --shop \(name)")
    }
  }

  static let invisible: [Unicode.Scalar] = [
    "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{200B}", "\u{200D}", "\u{2060}", "\u{FEFF}",
  ]

  @Test(arguments: invisible)
  func aShopNameWithABidiOrZeroWidthCharacterIsRefused(_ scalar: Unicode.Scalar) async throws {
    let sandbox = try Sandbox()
    let name = "air" + String(Character(scalar)) + "port"
    let escaped = "air\\u{\(String(scalar.value, radix: 16, uppercase: true))}port"
    let outcome = try await sandbox.run(["--lang", "en", "--shop", name, "order", "banana-juice"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(
      outcome.stderr
        == "The shop name “\(escaped)” holds an invisible character that reorders or hides "
        + "text; use letters, digits, spaces and punctuation.\n")
    let korean = try await sandbox.run(["--lang", "ko", "--shop", name, "order", "banana-juice"])
    #expect(korean.status == 64, "\(korean)")
    #expect(korean.stderr.contains("보이지 않는 문자"), "\(korean)")
    #expect(try await sandbox.history().isEmpty, "nothing was ordered")
  }

  @Test func anArgumentWithABidiOverrideIsShownEscaped() async throws {
    let sandbox = try Sandbox()
    let outcome = try await sandbox.run(["--lang", "en", "order", "kiwi\u{202E}juice"])
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.stderr.contains("“kiwi\\u{202E}juice”"), "\(outcome)")
    #expect(!outcome.stderr.unicodeScalars.contains("\u{202E}"))
    let json = try await sandbox.run(["--json", "order", "kiwi\u{200B}juice"])
    #expect(json.status == 64, "\(json)")
    #expect(!json.stdout.unicodeScalars.contains("\u{200B}"), "\(json)")
  }

  /// A journal row written with such a name (by an older version) shows escaped in
  /// `history`, and as a JSON escape in `history --json`.
  @Test func anEditorWithABidiOverrideIsShownEscapedInHistory() async throws {
    let sandbox = try Sandbox()
    let made = try await sandbox.run(["--shop", "airport", "order", "banana-juice"])
    #expect(made.status == 0, "\(made)")
    var handle: OpaquePointer?
    try #require(sqlite3_open(sandbox.store, &handle) == SQLITE_OK)
    defer { sqlite3_close(handle) }
    try #require(
      sqlite3_exec(
        handle, "UPDATE journal SET editor = 'air' || char(0x202E) || 'port'", nil, nil, nil)
        == SQLITE_OK)
    let text = try await sandbox.run(["--lang", "en", "history"])
    #expect(text.status == 0, "\(text)")
    #expect(text.stdout.contains("air\\u{202E}port"), "\(text)")
    #expect(!text.stdout.unicodeScalars.contains("\u{202E}"), "\(text)")
    let json = try await sandbox.run(["--json", "history"])
    #expect(json.stdout.contains(#""shop":"air\u202Eport""#), "\(json)")
    #expect(try json.json().objects("entries").first?.string("shop") == "air\u{202E}port")
  }
}
