import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A headless Chromium driven through the W3C WebDriver protocol: a `chromedriver` of the
/// test's own on a free port, and one browser session, over HTTP/1.1 on the loopback.
///
/// Not over `URLSession`: on Linux, FoundationNetworking refuses a response header with no
/// space after its colon (swift-corelibs-foundation#5527, fixed after Swift 6.3), and
/// `chromedriver` writes every header that way (`Content-Length:250`). A WebDriver
/// exchange is one JSON request and one JSON response with a `Content-Length`, which a
/// few lines over a socket do on every platform.
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
  ///   - acceptingAnyCertificate: Whether the browser accepts a server's self-signed
  ///     certificate, for a test server with TLS.
  init(width: Int = 1280, height: Int = 900, acceptingAnyCertificate: Bool = false) async throws {
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
      if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
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
          "acceptInsecureCerts": acceptingAnyCertificate,
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
      kill(driver.processIdentifier, SIGKILL)
      throw error
    }
  }

  deinit {
    if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(at: profile)
  }

  /// Ends the browser session and `chromedriver`, which ignores SIGTERM: it is asked to
  /// shut down, and killed if it has not within 5 s.
  func quit() async {
    _ = try? await command("DELETE", "")
    _ = try? await Self.send("GET", base.appending(path: "shutdown"), nil)
    let deadline = ContinuousClock.now + .seconds(5)
    while driver.isRunning, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
    driver.waitUntilExit()
  }

  // MARK: - Commands

  private static func send(_ method: String, _ url: URL, _ body: [String: Any]?) async throws
    -> Any?
  {
    let port = try #require(url.port)
    let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
    let (status, reply) = try await withCheckedThrowingContinuation { continuation in
      // Blocking socket calls, off Swift's cooperative pool.
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { try LoopbackHTTP.exchange(method, port: port, path: url.path, body: data) }
        )
      }
    }
    let object = try? JSONSerialization.jsonObject(with: reply, options: [.fragmentsAllowed])
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

  /// Sends a command of Chromium's DevTools protocol and decodes its result.
  func devTools<Value: Decodable>(
    _ method: String, _ parameters: [String: Any] = [:], as type: Value.Type = Value.self
  ) async throws -> Value {
    let value = try await command(
      "POST", "/goog/cdp/execute", ["cmd": method, "params": parameters])
    let data = try JSONSerialization.data(
      withJSONObject: value ?? [String: Any](), options: [.fragmentsAllowed])
    return try JSONDecoder().decode(Value.self, from: data)
  }

  /// A cookie as the browser keeps it, with the attributes a page cannot read.
  struct Cookie: Decodable, Sendable {
    let name: String
    let httpOnly: Bool
    let secure: Bool
    let sameSite: String?
  }

  /// The cookies the browser would send to `url`.
  func cookies(for url: URL) async throws -> [Cookie] {
    struct Reply: Decodable { let cookies: [Cookie] }
    return try await devTools(
      "Network.getCookies", ["urls": [url.absoluteString]], as: Reply.self
    ).cookies
  }

  /// Makes the page's viewport `width` × `height` CSS pixels, as a phone or tablet of that
  /// size shows it, through Chromium's DevTools protocol: a headless window has a minimum
  /// width wider than a phone.
  func emulateScreen(width: Int, height: Int, mobile: Bool = true) async throws {
    struct Empty: Decodable {}
    _ = try await devTools(
      "Emulation.setDeviceMetricsOverride",
      ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile],
      as: Empty.self)
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

/// One HTTP/1.1 request and its response over a loopback TCP connection, blocking.
private enum LoopbackHTTP {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Sends a request with an optional JSON body to `127.0.0.1:port`.
  ///
  /// - Returns: The status code and the body.
  static func exchange(_ method: String, port: Int, path: String, body: Data?) throws -> (
    Int, Data
  ) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 120, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Failure(description: "connect: errno \(errno)") }
    var request = Data(
      ("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        + "Content-Type: application/json; charset=utf-8\r\n"
        + "Content-Length: \(body?.count ?? 0)\r\n\r\n").utf8)
    request.append(body ?? Data())
    var sent = 0
    while sent < request.count {
      let count = request.withUnsafeBytes { bytes in
        bytes.baseAddress.map { write(descriptor, $0 + sent, bytes.count - sent) } ?? -1
      }
      guard count > 0 else { throw Failure(description: "write: errno \(errno)") }
      sent += count
    }
    var response = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    var headerEnd: Int?
    var length: Int?
    while true {
      if let headerEnd, let length, response.count - headerEnd >= length { break }
      let count = read(descriptor, &buffer, buffer.count)
      if count == 0 { break }
      guard count > 0 else { throw Failure(description: "read: errno \(errno)") }
      response.append(contentsOf: buffer[..<count])
      if headerEnd == nil, let range = response.range(of: Data("\r\n\r\n".utf8)) {
        headerEnd = range.upperBound
        let head = String(decoding: response[..<range.lowerBound], as: UTF8.self)
        for line in head.split(separator: "\r\n").dropFirst() {
          let parts = line.split(separator: ":", maxSplits: 1)
          if parts.count == 2, parts[0].lowercased() == "content-length" {
            length = Int(parts[1].trimmingCharacters(in: .whitespaces))
          }
        }
      }
    }
    guard let headerEnd else { throw Failure(description: "no response header") }
    let statusLine = String(decoding: response.prefix(while: { $0 != 13 }), as: UTF8.self)
    let fields = statusLine.split(separator: " ")
    guard fields.count >= 2, let status = Int(fields[1]) else {
      throw Failure(description: "bad status line: \(statusLine)")
    }
    var body = response[headerEnd...]
    if let length { body = body.prefix(length) }
    return (status, Data(body))
  }
}
