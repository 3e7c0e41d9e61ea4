import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A headless Chromium driven through the W3C WebDriver protocol: a `chromedriver` of the
/// test's own on a free port, and one browser session, over `URLSession`.
///
/// Only what the kiosk tests use: open a page, find elements by CSS selector, click, type,
/// press keys, read text and properties, run a script, resize the window, take a
/// screenshot, and read an element's role and name from Chromium's accessibility tree.
final class WebDriver: Sendable {
  /// An element of the page, by its WebDriver reference.
  struct Element: Sendable, CustomStringConvertible {
    let id: String
    var description: String { "element \(id)" }
  }

  /// A key of the WebDriver key table.
  enum Key: String, Sendable {
    case tab = "\u{E004}"
    case enter = "\u{E007}"
    case shift = "\u{E008}"
    case escape = "\u{E00C}"
    case space = "\u{E00D}"
  }

  /// A failed command: the WebDriver error code and message.
  struct Failure: Error, CustomStringConvertible {
    let command: String
    let status: Int
    let error: String
    let message: String
    var description: String { "\(command): \(status) \(error): \(message)" }
  }

  /// An executable on `PATH`, if any.
  static func executable(_ names: String...) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in names {
      for directory in path.split(separator: ":") {
        let candidate = directory + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }

  /// `chromedriver` on `PATH`, if any.
  static let chromedriver = executable("chromedriver")
  /// The browser on `PATH`, if any.
  static let chromium = executable("chromium", "chromium-browser", "google-chrome")

  /// Whether the browser tests must run: always under `CI=true`, where a missing
  /// `chromium` or `chromedriver` fails them instead of skipping them.
  static let required = ProcessInfo.processInfo.environment["CI"] == "true"

  /// Whether the browser tests run: both programs are installed, or CI requires them.
  static let enabled = (chromedriver != nil && chromium != nil) || required

  private let driver: Process
  private let base: URL
  private let session: String
  private let profile: URL

  /// Starts `chromedriver` and a headless Chromium with a window of the given size.
  ///
  /// - Parameters:
  ///   - width: The window's width in CSS pixels.
  ///   - height: The window's height in CSS pixels.
  init(width: Int = 1280, height: Int = 900) async throws {
    let chromedriver = try #require(
      Self.chromedriver, "chromedriver is not installed (Debian: chromium-driver)")
    let chromium = try #require(Self.chromium, "chromium is not installed")
    profile = FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerKiosk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    let log = profile.appending(path: "chromedriver.log")
    try Data().write(to: log)
    driver = Process()
    driver.executableURL = URL(fileURLWithPath: chromedriver)
    driver.arguments = ["--port=0"]
    driver.standardOutput = try FileHandle(forWritingTo: log)
    driver.standardError = FileHandle.nullDevice
    try driver.run()
    // "ChromeDriver was started successfully on port 45505."
    var port: Int?
    let deadline = ContinuousClock.now + .seconds(30)
    while port == nil, ContinuousClock.now < deadline, driver.isRunning {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      if let range = text.range(of: "successfully on port ") {
        port = Int(text[range.upperBound...].prefix { $0.isNumber })
      } else {
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    guard let port else {
      if driver.isRunning { driver.terminate() }
      throw Failure(
        command: "chromedriver", status: 0, error: "did not start",
        message: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    base = try #require(components.url)
    let capabilities: [String: Any] = [
      "capabilities": [
        "alwaysMatch": [
          "browserName": "chrome",
          "goog:chromeOptions": [
            "binary": chromium,
            "args": [
              "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=\(width),\(height)", "--force-device-scale-factor=1",
              "--lang=en-US", "--user-data-dir=" + profile.appending(path: "profile").path,
            ],
          ],
        ]
      ]
    ]
    do {
      let value = try await Self.send("POST", base.appending(path: "session"), capabilities)
      let reply = try #require(value as? [String: Any])
      session = try #require(reply["sessionId"] as? String)
    } catch {
      driver.terminate()
      throw error
    }
  }

  deinit {
    if driver.isRunning { driver.terminate() }
    try? FileManager.default.removeItem(at: profile)
  }

  /// Ends the browser session and `chromedriver`.
  func quit() async {
    _ = try? await command("DELETE", "")
    if driver.isRunning { driver.terminate() }
    driver.waitUntilExit()
  }

  // MARK: - Commands

  private static func send(_ method: String, _ url: URL, _ body: [String: Any]?) async throws
    -> Any?
  {
    var request = URLRequest(url: url, timeoutInterval: 60)
    request.httpMethod = method
    if let body {
      request.httpBody = try JSONSerialization.data(withJSONObject: body)
      request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    let value = (object as? [String: Any])?["value"]
    guard (200..<300).contains(status) else {
      let error = value as? [String: Any]
      throw Failure(
        command: "\(method) \(url.path)", status: status,
        error: error?["error"] as? String ?? "", message: error?["message"] as? String ?? "")
    }
    return value is NSNull ? nil : value
  }

  private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil)
    async throws -> Any?
  {
    let url = base.appending(path: "session/\(session)" + path)
    return try await Self.send(method, url, body ?? (method == "POST" ? [:] : nil))
  }

  private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

  private static func element(_ value: Any?) throws -> Element {
    let reference = try #require(value as? [String: Any])
    return Element(id: try #require(reference[elementKey] as? String))
  }

  // MARK: - The page

  /// Opens `url` and waits for it to load.
  func open(_ url: URL) async throws {
    _ = try await command("POST", "/url", ["url": url.absoluteString])
  }

  /// The first element that matches a CSS selector.
  func element(_ selector: String) async throws -> Element {
    try Self.element(
      try await command("POST", "/element", ["using": "css selector", "value": selector]))
  }

  /// Every element that matches a CSS selector.
  func elements(_ selector: String) async throws -> [Element] {
    let values = try await command(
      "POST", "/elements", ["using": "css selector", "value": selector])
    return try (values as? [Any] ?? []).map(Self.element)
  }

  /// The element that has focus.
  func activeElement() async throws -> Element {
    try Self.element(try await command("GET", "/element/active"))
  }

  /// Clicks an element as a pointer would, at its centre.
  func click(_ element: Element) async throws {
    _ = try await command("POST", "/element/\(element.id)/click")
  }

  /// Types text into an element.
  func type(_ text: String, into element: Element) async throws {
    _ = try await command("POST", "/element/\(element.id)/value", ["text": text])
  }

  /// An element's rendered text.
  func text(of element: Element) async throws -> String {
    try await command("GET", "/element/\(element.id)/text") as? String ?? ""
  }

  /// An element's role, from the browser's accessibility tree.
  func role(of element: Element) async throws -> String {
    try await command("GET", "/element/\(element.id)/computedrole") as? String ?? ""
  }

  /// An element's accessible name, from the browser's accessibility tree.
  func label(of element: Element) async throws -> String {
    try await command("GET", "/element/\(element.id)/computedlabel") as? String ?? ""
  }

  /// Presses keys one after another on the element with focus, as a keyboard does.
  func press(_ keys: Key...) async throws {
    var actions: [[String: Any]] = []
    for key in keys {
      actions.append(["type": "keyDown", "value": key.rawValue])
      actions.append(["type": "keyUp", "value": key.rawValue])
    }
    _ = try await command(
      "POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
  }

  /// Presses Shift+Tab.
  func pressShiftTab() async throws {
    let actions: [[String: Any]] = [
      ["type": "keyDown", "value": Key.shift.rawValue],
      ["type": "keyDown", "value": Key.tab.rawValue],
      ["type": "keyUp", "value": Key.tab.rawValue],
      ["type": "keyUp", "value": Key.shift.rawValue],
    ]
    _ = try await command(
      "POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
  }

  /// Runs a script in the page (`return …;` gives its value) and decodes what it returns.
  func evaluate<Value: Decodable>(
    _ script: String, _ arguments: [Any] = [], as type: Value.Type = Value.self
  ) async throws -> Value {
    let value = try await command(
      "POST", "/execute/sync", ["script": script, "args": arguments])
    let data = try JSONSerialization.data(
      withJSONObject: value ?? NSNull(), options: [.fragmentsAllowed])
    return try JSONDecoder().decode(Value.self, from: data)
  }

  /// Runs a script in the page for what it does.
  func run(_ script: String, _ arguments: [Any] = []) async throws {
    _ = try await command("POST", "/execute/sync", ["script": script, "args": arguments])
  }

  /// Resizes the window to a width and height in CSS pixels.
  func resize(width: Int, height: Int) async throws {
    _ = try await command("POST", "/window/rect", ["width": width, "height": height])
  }

  /// A PNG of the viewport.
  func screenshot() async throws -> Data {
    let text = try #require(try await command("GET", "/screenshot") as? String)
    return try #require(Data(base64Encoded: text))
  }

  /// Waits until `condition` holds, polling every 50 ms, for at most `timeout`.
  ///
  /// - Returns: Whether it held.
  @discardableResult
  func wait(
    timeout: Duration = .seconds(10), until condition: () async throws -> Bool
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if try await condition() { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
  }
}
