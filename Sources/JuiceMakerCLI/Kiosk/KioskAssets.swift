/// The kiosk page and its assets, compiled into the binary.
///
/// The files of `Sources/JuiceMakerCLI/Kiosk/Assets/` are embedded by the EmbedData build
/// plugin. `index.html` is served at `/`, every other file at `/kiosk/NAME`.
enum KioskAssets {
  /// One file of the page.
  struct Asset: Sendable {
    /// Its media type, such as `text/html; charset=utf-8`.
    let contentType: String
    /// Its bytes.
    let body: [UInt8]
  }

  /// The folder name the EmbedData plugin gives the kiosk's files.
  private static let directory = "Assets"

  /// The asset served at `path` (`/`, `/kiosk/kiosk.js`, …), if any.
  ///
  /// A query string is ignored; `/kiosk/index.html` is not served, so the page has one address.
  ///
  /// - Complexity: O(*n*) for *n* embedded files.
  static func asset(at path: String) -> Asset? {
    let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let name: Substring
    if path == "/" {
      name = "index.html"
    } else if path.hasPrefix("/kiosk/") {
      name = path.dropFirst("/kiosk/".count)
      guard name != "index.html" else { return nil }
    } else {
      return nil
    }
    guard
      let file = BuiltInData.files.first(where: { $0.directory == directory && $0.name == name }),
      let type = contentType(of: file.name)
    else { return nil }
    return Asset(contentType: type, body: Array(file.text.utf8))
  }

  /// The media type of a file, from its extension; `nil` for one the page does not use.
  private static func contentType(of name: String) -> String? {
    switch name.split(separator: ".").last {
    case "html": "text/html; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "js": "text/javascript; charset=utf-8"
    case "svg": "image/svg+xml"
    default: nil
    }
  }
}
