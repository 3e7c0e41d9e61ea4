import Foundation
import Testing

@testable import JuiceMakerCLI

/// The kiosk page compiled into the binary: where each file is served, and the rules the
/// page keeps (no inline script or style, no words of its own, every word in the catalog).
struct KioskAssetTests {
  static func text(_ path: String) throws -> String {
    let asset = try #require(KioskAssets.asset(at: path), "\(path) is not served")
    return String(decoding: asset.body, as: UTF8.self)
  }

  static func catalogKeys() throws -> Set<String> {
    let url = Paths.localization.appending(path: "Kiosk.xcstrings")
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    #expect(root["sourceLanguage"] as? String == "en")
    let strings = try #require(root["strings"] as? [String: Any])
    return Set(strings.keys)
  }

  @Test(arguments: [
    ("/", "text/html; charset=utf-8"),
    ("/kiosk/kiosk.css", "text/css; charset=utf-8"),
    ("/kiosk/kiosk.js", "text/javascript; charset=utf-8"),
    ("/?lang=ko", "text/html; charset=utf-8"),
  ])
  func servesEachFileWithItsType(_ path: String, _ type: String) throws {
    let asset = try #require(KioskAssets.asset(at: path))
    #expect(asset.contentType == type)
    #expect(!asset.body.isEmpty)
  }

  @Test(arguments: [
    "/index.html", "/kiosk/index.html", "/kiosk/", "/kiosk", "/kiosk/../Package.swift",
    "/kiosk/missing.js", "/api/v1/menu", "",
  ])
  func servesNothingElse(_ path: String) {
    #expect(KioskAssets.asset(at: path) == nil)
  }

  @Test func bytesAreTheFilesOnDisk() throws {
    let folder = Paths.root.appending(path: "Sources/JuiceMakerCLI/Kiosk/Assets")
    for (path, name) in [
      ("/", "index.html"), ("/kiosk/kiosk.css", "kiosk.css"), ("/kiosk/kiosk.js", "kiosk.js"),
    ] {
      let disk = try Data(contentsOf: folder.appending(path: name))
      #expect(KioskAssets.asset(at: path)?.body == Array(disk), "\(name)")
    }
  }

  /// The Content-Security-Policy forbids inline script and style: the page has none.
  @Test func pageHasNoInlineScriptOrStyle() throws {
    let html = try Self.text("/")
    #expect(!html.contains("<style"))
    #expect(!html.contains(" style="))
    #expect(html.ranges(of: "<script").count == 1)
    #expect(html.contains("<script src=\"/kiosk/kiosk.js\" defer></script>"))
    #expect(html.contains("<link rel=\"stylesheet\" href=\"/kiosk/kiosk.css\">"))
    #expect(html.firstMatch(of: /\son[a-z]+=/) == nil, "an inline event handler")
    let script = try Self.text("/kiosk/kiosk.js")
    #expect(!script.contains("innerHTML"))
    #expect(!script.contains(".style."))
    #expect(!script.contains("eval("))
  }

  /// The page's words are the catalog's: none in the page's files, every key the page asks
  /// for in `Kiosk.xcstrings`, and every key of it used.
  @Test func everyWordComesFromTheCatalog() throws {
    let keys = try Self.catalogKeys()
    #expect(keys.allSatisfy { $0.hasPrefix("kiosk.") })
    let html = try Self.text("/")
    let script = try Self.text("/kiosk/kiosk.js")
    var used: Set<String> = []
    for match in (html + script).matches(of: /["'](kiosk\.[A-Za-z.]+)["']/) {
      used.insert(String(match.1))
    }
    #expect(used.subtracting(keys) == [], "asked for but not in Kiosk.xcstrings")
    #expect(keys.subtracting(used) == [], "in Kiosk.xcstrings but never used")
    for (name, text) in [("index.html", html), ("kiosk.js", script)] {
      let hangul = text.unicodeScalars.filter {
        (0xAC00...0xD7A3).contains($0.value) || (0x1100...0x11FF).contains($0.value)
          || (0x3130...0x318F).contains($0.value)
      }
      #expect(hangul.isEmpty, "\(name) holds Hangul")
    }
    // Text is only ever put into the page from the catalog or the API.
    #expect(script.firstMatch(of: /textContent\s*=\s*["'`][^"'`]/) == nil)
    // Every element of the page holds no text of its own: only comments and markup.
    let body = html.replacing(/<!--[\s\S]*?-->/, with: "")
    for match in body.matches(of: />([^<]+)</) {
      let blank = match.1.allSatisfy { $0.isWhitespace }
      #expect(blank, "text in index.html: \(match.1)")
    }
  }
}
