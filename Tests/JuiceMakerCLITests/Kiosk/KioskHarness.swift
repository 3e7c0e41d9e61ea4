import Foundation
import Testing

/// The kiosk's words from `Localization/Kiosk.xcstrings`, by language and key, for the
/// tests to compare the page's text with.
enum KioskWords {
  /// language → key → value.
  static let all: [String: [String: String]] = {
    let url = Paths.localization.appending(path: "Kiosk.xcstrings")
    guard let data = try? Data(contentsOf: url),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let strings = root["strings"] as? [String: [String: Any]]
    else { return [:] }
    var all: [String: [String: String]] = [:]
    for (key, entry) in strings {
      let localizations = entry["localizations"] as? [String: [String: Any]] ?? [:]
      for (language, localization) in localizations {
        let unit = localization["stringUnit"] as? [String: Any]
        all[language, default: [:]][key] = unit?["value"] as? String
      }
    }
    return all
  }()

  /// The word for `key` in `language`.
  static func word(_ key: String, _ language: String) -> String {
    all[language]?[key] ?? "<\(key) missing in \(language)>"
  }
}

/// Where the element with focus is: enough to tell the kiosk's controls apart.
struct Focus: Decodable, Equatable, CustomStringConvertible {
  let id: String
  let classes: String
  let fruit: String?
  let juice: String?
  let dialog: String?

  var description: String {
    "#\(id) .\(classes) fruit=\(fruit ?? "-") juice=\(juice ?? "-") in \(dialog ?? "page")"
  }
}

/// A browser on the kiosk page of a server on a sandbox's store.
///
/// `KioskHarness.run` starts both, hands them to the test, and stops both afterwards,
/// whether the test passed or not.
final class KioskHarness {
  let sandbox: Sandbox
  private(set) var server: KioskServer
  let browser: WebDriver

  /// The arguments of `serve` beyond the store and the address, kept for a restart.
  private let serverArguments: [String]

  private init(
    sandbox: Sandbox, server: KioskServer, browser: WebDriver, serverArguments: [String]
  ) {
    self.sandbox = sandbox
    self.server = server
    self.browser = browser
    self.serverArguments = serverArguments
  }

  /// Runs `body` with a fresh store (10 of each fruit), its server and a browser.
  ///
  /// - Parameters:
  ///   - width: The browser window's width.
  ///   - height: The browser window's height.
  ///   - serverArguments: More arguments of `serve`, made in the sandbox before the server
  ///     starts, such as `--token-file` with a file it writes.
  ///   - tls: Whether the server has a self-signed certificate the browser accepts.
  static func run(
    width: Int = 1024, height: Int = 768, tls: Bool = false,
    serverArguments: (Sandbox) throws -> [String] = { _ in [] },
    _ body: (KioskHarness) async throws -> Void
  ) async throws {
    let sandbox = try Sandbox()
    var arguments = try serverArguments(sandbox)
    if tls { arguments += try certificate(in: sandbox) }
    let server = try await KioskServer(in: sandbox, arguments: arguments)
    let browser: WebDriver
    do {
      browser = try await WebDriver(width: width, height: height, acceptingAnyCertificate: tls)
    } catch {
      try await server.stop()
      throw error
    }
    let harness = KioskHarness(
      sandbox: sandbox, server: server, browser: browser, serverArguments: arguments)
    do {
      try await body(harness)
    } catch {
      await harness.finish()
      throw error
    }
    await harness.finish()
  }

  /// Makes a self-signed certificate for 127.0.0.1 with `openssl`.
  ///
  /// - Returns: The `--tls-cert` and `--tls-key` arguments.
  private static func certificate(in sandbox: Sandbox) throws -> [String] {
    let openssl = try #require(WebDriver.executable("openssl"), "openssl is not installed")
    let (certificate, key) = (sandbox.path("cert.pem"), sandbox.path("key.pem"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: openssl)
    process.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "openssl req failed")
    return ["--tls-cert", certificate, "--tls-key", key]
  }

  private func finish() async {
    await browser.quit()
    _ = try? await server.stop()
  }

  /// Stops the server and starts it again on the same store and port.
  func restartServer(between: () async throws -> Void = {}) async throws {
    let port = server.port
    let status = try await server.stop()
    #expect(status == 0, "serve after SIGTERM: \(status) \(server.stderr)")
    try await between()
    server = try await KioskServer(in: sandbox, port: port, arguments: serverArguments)
  }

  // MARK: - The page

  /// Opens the page, in a language or the browser's, and waits until ordering is enabled.
  func open(language: String? = nil) async throws {
    try await browser.open(try server.page(language.map { "lang=" + $0 }))
    try await waitUntilLive()
  }

  /// Waits until the page shows the menu with ordering enabled: the stream is current.
  func waitUntilLive(timeout: Duration = .seconds(15)) async throws {
    let live = try await browser.wait(timeout: timeout) {
      try await self.isLive()
    }
    #expect(live, "the page did not become live: \(server.stderr)")
  }

  /// Whether every order button is enabled and no reconnecting banner shows.
  func isLive() async throws -> Bool {
    try await browser.evaluate(
      """
      const buttons = [...document.querySelectorAll('button.order')];
      return buttons.length > 0 && buttons.every(b => !b.disabled)
        && !document.body.classList.contains('reconnecting');
      """, as: Bool.self)
  }

  /// The order button of a juice.
  func orderButton(_ juice: String) async throws -> WebDriver.Element {
    try await browser.element("button.order[data-juice=\"\(juice)\"]")
  }

  /// The + or − button of a fruit on the stock screen.
  func stepButton(_ fruit: String, _ delta: Int) async throws -> WebDriver.Element {
    try await browser.element(
      ".stepper[data-fruit=\"\(fruit)\"] button.\(delta < 0 ? "decrease" : "increase")")
  }

  /// A fruit's level as the order screen shows it, and as the stock screen does.
  func levels(_ fruit: String) async throws -> [String] {
    try await browser.evaluate(
      """
      return [...document.querySelectorAll('[data-fruit="' + arguments[0] + '"] .level')]
        .map(e => e.textContent);
      """, [fruit], as: [String].self)
  }

  /// Waits until both screens show `level` for a fruit.
  @discardableResult
  func waitForLevel(
    _ fruit: String, _ level: Int, timeout: Duration = .seconds(10)
  ) async throws -> Bool {
    try await browser.wait(timeout: timeout) {
      try await self.levels(fruit) == [String(level), String(level)]
    }
  }

  /// The ids of the open dialogs, innermost last.
  func openDialogs() async throws -> [String] {
    try await browser.evaluate(
      "return [...document.querySelectorAll('dialog[open]')].map(d => d.id);", as: [String].self)
  }

  /// Where the focus is.
  func focus() async throws -> Focus {
    try await browser.evaluate(
      """
      const e = document.activeElement || document.body;
      const row = e.closest('[data-fruit]');
      const dialog = e.closest('dialog');
      return { id: e.id || '', classes: e.className || '', fruit: row ? row.dataset.fruit : null,
        juice: e.dataset ? (e.dataset.juice || null) : null, dialog: dialog ? dialog.id : null };
      """, as: Focus.self)
  }

  /// The text of the notices shown.
  func notices() async throws -> [String] {
    try await browser.evaluate(
      "return [...document.querySelectorAll('.notice')].map(n => n.textContent);",
      as: [String].self)
  }

  /// The text of an element by CSS selector.
  func text(_ selector: String) async throws -> String {
    try await browser.text(of: try await browser.element(selector))
  }

  /// Presses Tab until `matches` holds for the focus, at most `limit` times.
  ///
  /// - Returns: Every focus passed on the way, the matching one last.
  @discardableResult
  func tab(until matches: (Focus) -> Bool, limit: Int = 30) async throws -> [Focus] {
    var visited: [Focus] = []
    for _ in 0..<limit {
      try await browser.press(.tab)
      let focus = try await focus()
      visited.append(focus)
      if matches(focus) { return visited }
    }
    Issue.record("Tab never reached the control; visited \(visited)")
    return visited
  }

  /// Writes a PNG of the viewport into the DocC catalog's resources, for the README: every
  /// run shows the page as it is.
  func screenshot(_ name: String) async throws {
    // Let the last animation end and the notices go, so the picture is the same each run.
    try await browser.run("document.querySelectorAll('.notice').forEach(n => n.remove());")
    try await Task.sleep(for: .milliseconds(900))
    let data = try await browser.screenshot()
    let folder = Paths.root.appending(path: "Sources/JuiceMakerCLI/JuiceMakerCLI.docc/Resources")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try data.write(to: folder.appending(path: name + ".png"))
  }

  /// Checks that no page content is wider than the viewport and that no element's text
  /// is cut off (clipped or hidden by its box).
  func expectFitsWidth(_ context: String, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    struct Fit: Decodable {
      let innerWidth: Int
      let scrollWidth: Int
      let cut: [String]
    }
    let fit = try await browser.evaluate(
      """
      const cut = [];
      for (const e of document.querySelectorAll('body *')) {
        if (!e.textContent.trim() || e.getClientRects().length === 0) continue;
        const style = getComputedStyle(e);
        if (style.display === 'inline' || style.display === 'contents') continue;
        // Wider than its box: spilled or clipped sideways. Taller than a box that hides
        // what overflows: clipped.
        const clips = style.overflowY === 'hidden' || style.overflowY === 'clip';
        if (e.scrollWidth > e.clientWidth + 1 || clips && e.scrollHeight > e.clientHeight + 1
            || style.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth) {
          cut.push(e.tagName + '.' + e.className + ' "' + e.textContent.trim().slice(0, 30) + '" '
            + e.scrollWidth + '>' + e.clientWidth);
        }
      }
      return { innerWidth: window.innerWidth,
        scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
        cut };
      """, as: Fit.self)
    #expect(
      fit.scrollWidth <= fit.innerWidth,
      "\(context): the page is \(fit.scrollWidth) px wide in a \(fit.innerWidth) px viewport",
      sourceLocation: sourceLocation)
    #expect(fit.cut == [], "\(context): text cut off", sourceLocation: sourceLocation)
  }

  /// Checks that every visible control has a role and an accessible name in Chromium's
  /// accessibility tree.
  func expectNamedControls(_ context: String, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let controls = try await browser.elements("button, input, [role=group]")
    var checked = 0
    for control in controls {
      let visible = try await browser.evaluate(
        """
        const e = arguments[0];
        const modal = [...document.querySelectorAll('dialog:modal')].pop();
        return e.getClientRects().length > 0 && !e.closest('[inert]')
          && (!modal || modal.contains(e));
        """,
        [["element-6066-11e4-a52e-4f735466cecf": control.id]], as: Bool.self)
      guard visible else { continue }
      checked += 1
      let role = try await browser.role(of: control)
      let label = try await browser.label(of: control)
      #expect(
        !role.isEmpty && role != "none" && role != "generic",
        "\(context): \(control) has role '\(role)'", sourceLocation: sourceLocation)
      #expect(
        !label.trimmingCharacters(in: .whitespaces).isEmpty,
        "\(context): a \(role) has no accessible name", sourceLocation: sourceLocation)
    }
    #expect(checked > 0, "\(context): no visible controls", sourceLocation: sourceLocation)
  }
}
