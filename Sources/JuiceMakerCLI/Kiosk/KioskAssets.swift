/// The kiosk page and its assets, compiled into the binary.
enum KioskAssets {
  /// One file of the page.
  struct Asset: Sendable {
    /// Its media type, such as `text/html; charset=utf-8`.
    let contentType: String
    /// Its bytes.
    let body: [UInt8]
  }

  /// The asset served at `path` (`/`, `/kiosk/kiosk.js`, …), if any.
  static func asset(at path: String) -> Asset? {
    nil
  }
}
