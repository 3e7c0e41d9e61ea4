import Foundation
import Testing

/// The counter kiosk in a real browser: headless Chromium driven through WebDriver, on
/// `juice-maker serve` over a sandbox's store.
///
/// Serialized: each test runs a server, `chromedriver` and a browser, and the 1 s bounds
/// hold on a busy machine only when the browsers do not compete with each other.
@Suite(.serialized, .enabled(if: WebDriver.enabled, "chromium and chromedriver are not installed"))
struct KioskTests {
  /// The seed's words of the two screens, from the catalog, and the server's sentences.
  struct Story: Sendable, CustomTestStringConvertible {
    let language: String
    let made: String
    let question: String
    let short: String
    var testDescription: String { language }
  }

  static let stories = [
    Story(
      language: "ko", made: "딸바쥬스 나왔습니다! 맛있게 드세요!",
      question: "재료가 모자라요. 재고를 수정할까요?", short: "딸기 10개"),
    Story(
      language: "en", made: "Here is your Strawberry Banana Juice. Enjoy!",
      question: "Not enough fruit. Edit the stock?", short: "10 more strawberries"),
  ]

  /// The seed story: order, the success message, a refusal, 예 to the stock screen on the
  /// short fruit, a stepper press, 닫기; with the catalog's words, on a tablet, with every
  /// control named and every dialog taking focus and giving it back.
  @Test(arguments: stories)
  func seedStory(_ story: Story) async throws {
    let language = story.language
    func word(_ key: String) -> String { KioskWords.word(key, language) }
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: language)
      let browser = kiosk.browser
      #expect(try await kiosk.text("#order-title") == word("kiosk.title"))
      #expect(try await kiosk.text("#edit-stock") == word("kiosk.editStock"))
      #expect(try await browser.evaluate("return document.documentElement.lang;") == language)
      #expect(try await browser.evaluate("return document.title;") == word("kiosk.title"))
      let buttons = try await browser.elements("button.order")
      #expect(buttons.count == 7)
      for button in buttons {
        #expect(try await browser.text(of: button).hasSuffix(word("kiosk.order")))
      }
      #expect(try await kiosk.levels("strawberry") == ["10", "10"])
      try await kiosk.expectNamedControls("order screen")
      try await kiosk.screenshot("kiosk-order-\(language)")

      // 딸바쥬스 주문: the seed's success message, in a dialog that holds the focus.
      let order = try await kiosk.orderButton("strawberry-banana-juice")
      try await browser.click(order)
      try await browser.wait { try await kiosk.openDialogs() == ["made-dialog"] }
      #expect(try await kiosk.text("#made-text") == story.made)
      #expect(try await browser.role(of: try await browser.element("#made-dialog")) == "dialog")
      #expect(try await kiosk.focus().id == "made-ok")
      #expect(try await kiosk.levels("strawberry") == ["0", "0"])
      #expect(try await kiosk.levels("banana") == ["9", "9"])
      try await browser.click(try await browser.element("#made-ok"))
      #expect(try await kiosk.openDialogs() == [])
      #expect(try await kiosk.focus().juice == "strawberry-banana-juice")

      // Again: refused, with every short fruit named, and 예/아니오.
      try await browser.click(order)
      try await browser.wait { try await kiosk.openDialogs() == ["refused-dialog"] }
      let dialog = try await browser.element("#refused-dialog")
      #expect(try await browser.role(of: dialog) == "dialog")
      let refusal = try await kiosk.text("#refused-detail")
      #expect(refusal.hasPrefix(story.question), "\(refusal)")
      #expect(refusal.contains(story.short), "\(refusal)")
      #expect(try await browser.label(of: dialog) == refusal)
      #expect(try await kiosk.text("#refused-yes") == word("kiosk.yes"))
      #expect(try await kiosk.text("#refused-no") == word("kiosk.no"))
      #expect(try await kiosk.focus().id == "refused-yes")
      try await kiosk.expectNamedControls("refusal dialog")

      // 예: the stock screen, on the short fruit.
      try await browser.click(try await browser.element("#refused-yes"))
      try await browser.wait { try await kiosk.openDialogs() == ["stock-screen"] }
      #expect(try await kiosk.text("#stock-title") == word("kiosk.stock.title"))
      #expect(try await kiosk.text("#close-stock") == word("kiosk.close"))
      let focus = try await kiosk.focus()
      #expect(focus.fruit == "strawberry" && focus.classes.contains("increase"), "\(focus)")
      let plus = try await kiosk.stepButton("strawberry", 1)
      let name = try await browser.label(of: plus)
      #expect(name.contains(word("kiosk.stepper.increase")), "\(name)")
      try await kiosk.expectNamedControls("stock screen")

      // One press is one step, in the store too.
      try await browser.click(plus)
      #expect(try await kiosk.waitForLevel("strawberry", 1))
      try await browser.click(plus)
      #expect(try await kiosk.waitForLevel("strawberry", 2))
      try await browser.click(try await kiosk.stepButton("strawberry", -1))
      #expect(try await kiosk.waitForLevel("strawberry", 1))
      #expect(try await kiosk.sandbox.stock()["strawberry"] == 1)
      try await kiosk.screenshot("kiosk-stock-\(language)")

      // 닫기: back to the order screen, focus on the button that started it.
      try await browser.click(try await browser.element("#close-stock"))
      #expect(try await kiosk.openDialogs() == [])
      #expect(try await kiosk.focus().juice == "strawberry-banana-juice")
      #expect(try await kiosk.levels("strawberry") == ["1", "1"])
      // The page's own changes bring no notice of another shop.
      #expect(try await kiosk.notices() == [])
    }
  }

  /// The ko/en switch changes every word and the API's names without a reload.
  @Test func languageSwitchNeedsNoReload() async throws {
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: "en")
      let browser = kiosk.browser
      try await browser.run("window.notReloaded = true;")
      let korean = try await browser.element("#languages button[lang=ko]")
      #expect(try await browser.text(of: korean) == KioskWords.word("kiosk.languageName", "ko"))
      try await browser.click(korean)
      try await browser.wait {
        try await kiosk.text("#order-title") == KioskWords.word("kiosk.title", "ko")
      }
      try await browser.wait {
        try await browser.text(of: try await kiosk.orderButton("strawberry-banana-juice"))
          .hasPrefix("딸바쥬스")
      }
      #expect(try await browser.evaluate("return window.notReloaded === true;", as: Bool.self))
      #expect(try await browser.evaluate("return document.documentElement.lang;") == "ko")
      try await kiosk.waitUntilLive()
    }
  }

  /// A sale made by another shop with the CLI, in another process, shows within 1 s, with
  /// a notice naming the shop.
  @Test func saleFromTheCommandLineShowsWithinOneSecond() async throws {
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: "ko")
      let outcome = try await kiosk.sandbox.run([
        "--shop", "airport", "order", "strawberry-banana-juice",
      ])
      #expect(outcome.status == 0, "\(outcome)")
      let sold = ContinuousClock.now
      let shown = try await kiosk.waitForLevel("strawberry", 0, timeout: .seconds(5))
      let elapsed = ContinuousClock.now - sold
      #expect(shown)
      #expect(elapsed < .seconds(1), "shown after \(elapsed)")
      #expect(try await kiosk.levels("banana") == ["9", "9"])
      let notices = try await kiosk.notices()
      #expect(notices.contains { $0.contains("airport") && $0.contains("딸바쥬스") }, "\(notices)")

      // An edit too.
      let edit = try await kiosk.sandbox.run(["--shop", "airport", "stock", "add", "kiwi", "3"])
      #expect(edit.status == 0, "\(edit)")
      let edited = ContinuousClock.now
      #expect(try await kiosk.waitForLevel("kiwi", 13, timeout: .seconds(5)))
      #expect(ContinuousClock.now - edited < .seconds(1))
    }
  }

  /// A pack published to the store shows on the open page, named in its language, without
  /// a reload: the server takes up the menu and says so with `event: menu`.
  @Test func aPublishedPackShowsWithoutAReload() async throws {
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: "ko")
      let pack = try LiveMenuTests.packFile(kiosk.sandbox, "grape.json", LiveMenuTests.grape)
      let names = try LiveMenuTests.packFile(
        kiosk.sandbox, "Grape.xcstrings", LiveMenuTests.grapeNames)
      let published = try await kiosk.sandbox.run(["packs", "publish", pack, names])
      #expect(published.status == 0, "\(published)")
      let shown = try await kiosk.browser.wait(timeout: .seconds(5)) {
        try await kiosk.browser.evaluate(
          """
          const button = document.querySelector('button.order[data-juice="grape-juice"]');
          return button !== null && button.textContent.includes(arguments[0]);
          """, ["포도쥬스"], as: Bool.self)
      }
      #expect(shown)
      try await kiosk.browser.click(try await kiosk.orderButton("grape-juice"))
      #expect(try await kiosk.waitForLevel("grape", 2, timeout: .seconds(5)))
    }
  }

  /// A stepper press against a level that changed since it was shown changes nothing,
  /// shows the level there is, and says so; the next press steps from there.
  @Test func staleStepperPress() async throws {
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: "en")
      let browser = kiosk.browser
      try await browser.click(try await browser.element("#edit-stock"))
      try await browser.wait { try await kiosk.openDialogs() == ["stock-screen"] }
      // The page misses the next change, as when it lands between showing and pressing.
      try await browser.run("state.source.close();")
      let edit = try await kiosk.sandbox.run(["--shop", "airport", "stock", "set", "kiwi", "7"])
      #expect(edit.status == 0, "\(edit)")
      #expect(try await kiosk.levels("kiwi") == ["10", "10"])

      try await browser.click(try await kiosk.stepButton("kiwi", 1))
      #expect(try await kiosk.waitForLevel("kiwi", 7))
      // The notice says the level changed, naming the fruit and both levels.
      let said = try await browser.wait {
        try await kiosk.notices().contains { $0.lowercased().contains("kiwi") && $0.contains("7") }
      }
      let notices = try await kiosk.notices()
      #expect(said, "\(notices)")
      #expect(
        try await browser.evaluate(
          "return document.querySelectorAll('.notice.stale').length;", as: Int.self) == 1)
      #expect(try await kiosk.sandbox.stock()["kiwi"] == 7)

      try await browser.click(try await kiosk.stepButton("kiwi", 1))
      #expect(try await kiosk.waitForLevel("kiwi", 8))
      #expect(try await kiosk.sandbox.stock()["kiwi"] == 8)
    }
  }

  /// When the server stops, the page says it is reconnecting and disables ordering; when
  /// it is back on the same store and port, the page catches up on what it missed and
  /// enables ordering again.
  @Test func reconnectsAfterTheServerRestarts() async throws {
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: "ko")
      let browser = kiosk.browser
      try await kiosk.restartServer {
        let down = try await browser.wait {
          try await browser.evaluate(
            """
            return document.body.classList.contains('reconnecting')
              && [...document.querySelectorAll('button.order')].every(b => b.disabled)
              && getComputedStyle(document.querySelector('#order-screen .connection')).display
                !== 'none';
            """, as: Bool.self)
        }
        #expect(down, "the page did not show that it is reconnecting")
        #expect(
          try await kiosk.text("#order-screen .connection")
            == KioskWords.word("kiosk.reconnecting", "ko"))
        // A sale while the server is down, seen through the journal once it is back.
        let outcome = try await kiosk.sandbox.run([
          "--shop", "airport", "order", "mango-kiwi-juice",
        ])
        #expect(outcome.status == 0, "\(outcome)")
      }
      try await kiosk.waitUntilLive(timeout: .seconds(20))
      #expect(try await kiosk.waitForLevel("mango", 8))
      #expect(try await kiosk.levels("kiwi") == ["9", "9"])

      // Ordering works again.
      try await browser.click(try await kiosk.orderButton("banana-juice"))
      try await browser.wait { try await kiosk.openDialogs() == ["made-dialog"] }
      #expect(try await kiosk.levels("banana") == ["8", "8"])
    }
  }

  /// On a 360 px phone nothing scrolls sideways and no Hangul is cut, on either screen or
  /// in a dialog.
  @Test(arguments: ["ko", "en"])
  func phoneWidth(_ language: String) async throws {
    try await KioskHarness.run(width: 360, height: 740) { kiosk in
      let browser = kiosk.browser
      try await browser.emulateScreen(width: 360, height: 740)
      try await kiosk.open(language: language)
      #expect(try await browser.evaluate("return window.innerWidth;", as: Int.self) == 360)
      try await kiosk.expectFitsWidth("order screen")
      if language == "ko" { try await kiosk.screenshot("kiosk-phone-ko") }
      await kiosk.sandbox.setStock(["strawberry": 0])
      #expect(try await kiosk.waitForLevel("strawberry", 0))
      try await browser.click(try await kiosk.orderButton("strawberry-banana-juice"))
      try await browser.wait { try await kiosk.openDialogs() == ["refused-dialog"] }
      try await kiosk.expectFitsWidth("refusal dialog")
      try await browser.click(try await browser.element("#refused-yes"))
      try await browser.wait { try await kiosk.openDialogs() == ["stock-screen"] }
      try await kiosk.expectFitsWidth("stock screen")
      for width in [600, 800, 1280] {
        try await browser.emulateScreen(width: width, height: 800, mobile: false)
        #expect(try await browser.evaluate("return window.innerWidth;", as: Int.self) == width)
        try await kiosk.expectFitsWidth("stock screen at \(width) px")
      }
      try await browser.click(try await browser.element("#close-stock"))
      for width in [360, 600, 800, 1280] {
        try await browser.emulateScreen(width: width, height: 800, mobile: width < 600)
        try await kiosk.expectFitsWidth("order screen at \(width) px")
      }
    }
  }

  /// The whole story by keyboard only: Tab in a sensible order, Enter and Space press,
  /// Esc closes dialogs, and focus comes back where it was.
  @Test func wholeStoryByKeyboard() async throws {
    try await KioskHarness.run { kiosk in
      try await kiosk.open(language: "ko")
      let browser = kiosk.browser
      // The tab order: the language switch, 재고수정, then the juices in menu order.
      let path = try await kiosk.tab { $0.juice == "strawberry-banana-juice" }
      let ids = path.map { $0.juice ?? $0.id }
      let editIndex = try #require(ids.firstIndex(of: "edit-stock"))
      #expect(path[..<editIndex].allSatisfy { $0.classes.contains("language") }, "\(path)")
      #expect(
        path[(editIndex + 1)...].allSatisfy { $0.juice != nil }, "juices after 재고수정: \(path)")

      // Enter orders; the message takes focus; Space closes it; focus comes back.
      try await browser.press(.enter)
      try await browser.wait { try await kiosk.openDialogs() == ["made-dialog"] }
      #expect(try await kiosk.focus().id == "made-ok")
      try await browser.press(.space)
      try await browser.wait { try await kiosk.openDialogs() == [] }
      #expect(try await kiosk.focus().juice == "strawberry-banana-juice")

      // Refused; Esc says no.
      try await browser.press(.enter)
      try await browser.wait { try await kiosk.openDialogs() == ["refused-dialog"] }
      try await browser.press(.escape)
      try await browser.wait { try await kiosk.openDialogs() == [] }
      #expect(try await kiosk.focus().juice == "strawberry-banana-juice")

      // Refused again; Tab moves within the dialog from 예 to 아니오 and back; Enter on 예.
      try await browser.press(.enter)
      try await browser.wait { try await kiosk.openDialogs() == ["refused-dialog"] }
      #expect(try await kiosk.focus().id == "refused-yes")
      try await browser.press(.tab)
      #expect(try await kiosk.focus().id == "refused-no")
      try await browser.pressShiftTab()
      #expect(try await kiosk.focus().id == "refused-yes")
      try await browser.press(.enter)
      try await browser.wait { try await kiosk.openDialogs() == ["stock-screen"] }
      let focus = try await kiosk.focus()
      #expect(focus.fruit == "strawberry" && focus.classes.contains("increase"), "\(focus)")

      // Space and Enter each step once.
      try await browser.press(.space)
      #expect(try await kiosk.waitForLevel("strawberry", 1))
      try await browser.press(.enter)
      #expect(try await kiosk.waitForLevel("strawberry", 2))
      // Shift+Tab reaches the − of the same fruit.
      try await browser.pressShiftTab()
      let minus = try await kiosk.focus()
      #expect(minus.fruit == "strawberry" && minus.classes.contains("decrease"), "\(minus)")
      try await browser.press(.enter)
      #expect(try await kiosk.waitForLevel("strawberry", 1))
      #expect(try await kiosk.sandbox.stock()["strawberry"] == 1)

      // Esc closes the stock screen; focus returns to the juice that started it all.
      try await browser.press(.escape)
      try await browser.wait { try await kiosk.openDialogs() == [] }
      #expect(try await kiosk.focus().juice == "strawberry-banana-juice")

      // 재고수정 by keyboard: focus on 닫기; Enter closes; focus back on 재고수정.
      try await kiosk.tab { $0.id == "edit-stock" }
      try await browser.press(.enter)
      try await browser.wait { try await kiosk.openDialogs() == ["stock-screen"] }
      #expect(try await kiosk.focus().id == "close-stock")
      try await browser.press(.enter)
      try await browser.wait { try await kiosk.openDialogs() == [] }
      #expect(try await kiosk.focus().id == "edit-stock")
    }
  }

  /// With a token file, the page asks for the token, exchanges it for a session cookie
  /// (`HttpOnly`, `SameSite=Strict`, and `Secure` under TLS), and keeps the token nowhere.
  @Test(arguments: [false, true])
  func signInWithAToken(tls: Bool) async throws {
    let token = "kiosk-test-token-0123456789"
    try await KioskHarness.run(
      tls: tls,
      serverArguments: { sandbox in
        let path = sandbox.path("tokens")
        try Data("\(token) counter staff\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return ["--token-file", path]
      }
    ) { kiosk in
      let browser = kiosk.browser
      try await browser.open(try kiosk.server.page("lang=ko"))
      try await browser.wait { try await kiosk.focus().id == "sign-in-token" }
      #expect(try await kiosk.text("#sign-in-title") == KioskWords.word("kiosk.signIn.title", "ko"))
      let field = try await browser.element("#sign-in-token")
      #expect(try await browser.label(of: field) == KioskWords.word("kiosk.signIn.token", "ko"))
      try await kiosk.expectNamedControls("sign-in screen")

      try await browser.type("wrong-token-0123456789", into: field)
      try await browser.press(.enter)
      try await browser.wait {
        try await browser.evaluate(
          "return !document.getElementById('sign-in-failed').hidden;", as: Bool.self)
      }
      #expect(
        try await kiosk.text("#sign-in-failed") == KioskWords.word("kiosk.signIn.failed", "ko"))

      try await browser.type(token, into: field)
      try await browser.press(.enter)
      try await kiosk.waitUntilLive()
      struct Kept: Decodable {
        let cookie: String
        let storage: String
        let field: String
      }
      let kept = try await browser.evaluate(
        """
        return { cookie: document.cookie,
          storage: JSON.stringify(localStorage) + JSON.stringify(sessionStorage),
          field: document.getElementById('sign-in-token').value };
        """, as: Kept.self)
      #expect(!kept.cookie.contains("juice_session"), "the session cookie is not HttpOnly")
      let cookies = try await browser.cookies(for: kiosk.server.origin)
      let session = try #require(cookies.first { $0.name == "juice_session" })
      #expect(session.httpOnly)
      #expect(session.sameSite == "Strict")
      #expect(session.secure == tls)
      #expect(kiosk.server.origin.scheme == (tls ? "https" : "http"))
      #expect(!kept.storage.contains(token) && kept.field.isEmpty)
      try await browser.click(try await kiosk.orderButton("banana-juice"))
      try await browser.wait { try await kiosk.openDialogs() == ["made-dialog"] }
    }
  }
}
