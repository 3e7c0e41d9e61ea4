import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerHTTP
import JuiceMakerKit
import Synchronization

/// The shop over HTTP: answers each request of `juice-maker serve` from the shop's rules.
///
/// It decides nothing about stock: orders go through `JuiceMaker.order`, edits through
/// `FruitStore.edit`, names through `NameIndex`, counts through `Quantity`, and errors
/// become problem documents through the same `CLIError` the command line prints. A
/// request id (`Idempotency-Key`) is the journal's, so a retried request is answered
/// from its journal entry, the same as the first time.
final class ShopAPI: Sendable {
  let shop: JuiceMaker
  let storage: any StockStorage
  let strings: StringCatalog
  /// The names of the menu's juices and fruits in every language, indexed on first use:
  /// orders and edits by id never need them, and a changed menu is taken up sooner.
  private let nameIndex = Mutex<NameIndex?>(nil)
  let events: EventHub
  let metrics: Metrics
  /// Each fruit's limits, for the stock document, `/metrics` and `event: low`.
  let board: LimitsBoard
  let access: AccessControl
  /// The words of each language of the catalogs, and of the server's own.
  private let texts: [String: Texts]
  private let defaultTexts: Texts
  /// The server's origin, such as `http://127.0.0.1:8080`, filled in once it listens.
  private let origin = Mutex("")
  /// When the server began to stop; requests received before it are still answered.
  private let drainStart = Mutex<ContinuousClock.Instant?>(nil)
  /// The last menu and stock documents written in each language.
  private let documents = DocumentCache()
  /// The menu's version and why a changed menu was not taken up, for `/healthz`.
  let menuStatus: MenuStatus

  /// Creates the answers of a server, or of a server's changed menu.
  ///
  /// - Parameter previous: The answers of the menu before, whose event streams, origin and
  ///   menu status go on; `nil` for a server's first menu.
  init(
    shop: JuiceMaker, storage: any StockStorage, strings: StringCatalog, defaultTexts: Texts,
    access: AccessControl, continuing previous: ShopAPI? = nil
  ) throws(CLIError) {
    self.shop = shop
    self.storage = storage
    self.strings = strings
    self.defaultTexts = defaultTexts
    self.access = access
    metrics = Metrics(juices: shop.catalog.juices.map(\.id))
    board = try LimitsBoard(shop: shop)
    var texts: [String: Texts] = [:]
    for language in strings.languages {
      texts[language] = Texts(localizer: strings.localizer(for: language))
    }
    self.texts = texts
    if let previous {
      events = previous.events
      events.adopt(board, texts: texts)
      menuStatus = previous.menuStatus
      origin.withLock { $0 = previous.origin.withLock { $0 } }
    } else {
      events = try EventHub(storage: storage, board: board)
      menuStatus = MenuStatus()
    }
  }

  /// The index of the menu's names, built by the first request that needs it.
  private func names() -> NameIndex {
    nameIndex.withLock { index in
      if let index { return index }
      let built = NameIndex(catalog: shop.catalog, strings: strings)
      index = built
      return built
    }
  }

  /// Sets the origin the server listens at, for the same-origin check.
  func listening(at origin: String) {
    self.origin.withLock { $0 = origin }
  }

  /// Refuses new requests from now on; event streams end.
  func drain() {
    drainStart.withLock { $0 = .now }
    events.finishAll()
  }

  // MARK: - Answering

  /// Answers one request.
  func respond(to request: HTTPRequest) -> HTTPReply {
    let start = ContinuousClock.now
    let (path, query) = (request.path, Query(request.query))
    let texts = language(of: request, query: query)
    var reply: HTTPReply
    var routeName = "other"
    do throws(APIError) {
      if let start = drainStart.withLock({ $0 }), request.received >= start {
        throw .shuttingDown
      }
      switch APIRoute.match(method: request.method, path: path) {
      case .route(let route, let parameter):
        routeName = route.path
        reply = try answer(route, parameter: parameter, request, query, texts)
      case .wrongMethod(let allowed):
        guard request.method == "OPTIONS", let origin = request.header("origin"),
          access.allowedOrigins.contains(origin)
        else {
          throw .methodNotAllowed(method: request.method, allowed: allowed)
        }
        // A CORS preflight from an allowed origin.
        reply = .response(
          HTTPResponse(
            status: 204,
            headers: [
              HTTPHeader("Access-Control-Allow-Methods", allowed.joined(separator: ", ")),
              HTTPHeader(
                "Access-Control-Allow-Headers",
                "Authorization, Content-Type, Idempotency-Key, Last-Event-ID"),
              HTTPHeader("Access-Control-Max-Age", "600"),
            ]))
      case .none:
        if request.method == "GET" || request.method == "HEAD",
          let asset = KioskAssets.asset(at: path)
        {
          routeName = "page"
          reply = .response(
            HTTPResponse(
              status: 200,
              headers: [
                HTTPHeader("Content-Type", asset.contentType),
                HTTPHeader("Content-Security-Policy", Self.pagePolicy),
                HTTPHeader("Cache-Control", "no-cache"),
                HTTPHeader("Referrer-Policy", "no-referrer"),
              ], body: asset.body))
        } else {
          throw .notFound(path: path)
        }
      }
    } catch {
      reply = .response(problem(error, texts))
    }
    reply = finish(reply, request, texts)
    if case .response(let response) = reply {
      let elapsed = ContinuousClock.now - start
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      metrics.request(route: routeName, status: response.status, seconds: seconds)
    } else {
      metrics.request(route: routeName, status: 200, seconds: 0)
    }
    return reply
  }

  /// The Content-Security-Policy of the page: its own scripts, styles and API only.
  static let pagePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
    + "frame-ancestors 'none'"

  private func answer(
    _ route: APIRoute, parameter: Substring?, _ request: HTTPRequest, _ query: Query,
    _ texts: Texts
  ) throws(APIError) -> HTTPReply {
    try checkHost(request)
    let roles = access.roles(of: request)
    switch route.access {
    case .open: break
    case .token:
      if roles == nil { throw .unauthorized }
    case .role(let role):
      guard let roles else { throw .unauthorized }
      if !roles.contains(role), !roles.contains(.staff) { throw .forbidden(role: role) }
    }
    if route.isStateChanging {
      try checkOrigin(request)
      if request.bodyTooLarge { throw .bodyTooLarge(limit: ServeLimits.maximumBody) }
      // A body, or a stated media type, must be JSON even where the route takes none.
      if route.body != nil || !request.body.isEmpty || request.header("content-type") != nil {
        let type = request.header("content-type") ?? ""
        // The media type before any parameter, without HTTP's optional white space (spaces
        // and tabs); trimmed by hand, as Foundation's trimming bridges through NSString on
        // every state-changing request.
        var media = type.prefix { $0 != ";" }
        while media.first == " " || media.first == "\t" { media.removeFirst() }
        while media.last == " " || media.last == "\t" { media.removeLast() }
        guard media.lowercased() == "application/json" else {
          throw .unsupportedMediaType(type)
        }
      }
    }
    switch route.operation {
    case .menu: return try .response(json(200, menu(texts)))
    case .stock: return try .response(json(200, stock(texts)))
    case .order: return try .response(order(request, texts))
    case .editStock:
      return try .response(editStock(Query.decodeSegment(parameter ?? ""), request, texts))
    case .history: return try .response(json(200, history(query, texts)))
    case .events: return try events(request, query, texts)
    case .strings: return .response(json(200, words(texts)))
    case .signIn: return try .response(signIn(request))
    case .signOut:
      access.endSession(of: request)
      return .response(
        HTTPResponse(
          status: 204, headers: [HTTPHeader("Set-Cookie", cookie("", request, maxAge: 0))]))
    case .openAPI:
      return .response(json(200, OpenAPIDocument.bytes))
    case .metrics:
      let levels = try? storage.levels()
      let text = metrics.text(
        fruits: storage.fruits, levels: levels, limits: board.current, streams: events.count)
      return .response(
        HTTPResponse(
          status: 200,
          headers: [HTTPHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
          body: Array(text.utf8)))
    case .health:
      do {
        _ = try storage.levels()
        let menu = menuStatus.current
        var body = JSONWriter()
        body.object { json in
          json.member("status", "ok")
          json.key("menu")
          json.object { json in
            json.member("version", menu.version)
            if let problem = menu.problem { json.member("problem", problem) }
          }
        }
        return .response(json(200, body.bytes))
      } catch {
        throw .command(CLIError(error))
      }
    }
  }

  // MARK: - Routes

  private func readLevels() throws(APIError) -> (levels: [Int], sequence: Int64) {
    do {
      // The sequence first: the levels then hold at least every entry up to it.
      let sequence = try EventHub.newestSequence(storage)
      let levels = try storage.levels()
      return (levels, sequence)
    } catch let error as CLIError {
      throw .command(error)
    } catch let error as StockStorageError {
      throw .command(CLIError(error))
    } catch {
      throw .shuttingDown
    }
  }

  private func menu(_ texts: Texts) throws(APIError) -> [UInt8] {
    let (levels, sequence) = try readLevels()
    return documents.document(.menu, texts, levels: levels, sequence: sequence) {
      APIDocuments.menu(
        shop.catalog, makeable: shop.makeableCounts(levels: levels), sequence: sequence, texts)
    }
  }

  private func stock(_ texts: Texts) throws(APIError) -> [UInt8] {
    let (levels, sequence) = try readLevels()
    return documents.document(.stock, texts, levels: levels, sequence: sequence) {
      // Written anew after any entry, a `limits` one too: the limits are read again.
      try? board.refresh()
      return APIDocuments.stock(
        storage.fruits, levels: levels, limits: board.current, sequence: sequence, texts)
    }
  }

  private func order(_ request: HTTPRequest, _ texts: Texts) throws(APIError) -> HTTPResponse {
    var body = try RequestBody(request.body)
    guard let name = try body.string("juice") else {
      throw .invalidBody(field: "juice", problem: .missing)
    }
    let count = try body.number("count", .positive) ?? 1
    try body.finish()
    let juice: Juice
    do {
      juice = try NameIndex.juice(named: name, in: shop.catalog, index: names)
    } catch {
      throw .command(error)
    }
    let id = try requestID(request)
    let receipt: StockReceipt
    do {
      receipt = try shop.order(juice, count: count, requestID: id)
    } catch {
      throw .command(CLIError(error))
    }
    let entry = receipt.entry
    var headers = [HTTPHeader("Idempotency-Key", id.rawValue)]
    if receipt.replayed { headers.append(HTTPHeader("Idempotent-Replayed", "true")) }
    if receipt.status == .performed, let index = shop.catalog.index(of: juice) {
      if case .done = entry.outcome {
        metrics.order(index, made: true)
        for (change, _) in board.crossings(entry.changes) { metrics.lowCrossing(change.fruit) }
      } else {
        metrics.order(index, made: false)
      }
    }
    switch (receipt.status, entry.outcome) {
    case (.idReused, _):
      throw .command(.requestIDReused(entry.id, firstUse: entry.operation))
    case (_, .done):
      let words = documents.orderWords(juice.id, count: count, texts)
      var response = json(201, APIDocuments.order(entry, texts, words: words))
      response.headers += headers
      return response
    case (_, .refused(let shortages)):
      var response = problem(.command(.outOfStock(shortages)), texts)
      response.headers += headers
      return response
    case (_, .conflict(let fruit, let expected, let actual)):
      var response = problem(
        .command(.stockChanged(fruit: fruit, expected: expected, actual: actual)), texts)
      response.headers += headers
      return response
    }
  }

  private func editStock(_ name: String, _ request: HTTPRequest, _ texts: Texts)
    throws(APIError) -> HTTPResponse
  {
    let fruit: Fruit.ID
    do {
      fruit = try NameIndex.fruit(named: name, in: shop.catalog, index: names)
    } catch {
      throw .command(error)
    }
    var body = try RequestBody(request.body)
    let given = ["add", "remove", "set"].filter { body.has($0) }
    guard given.count == 1, let verb = given.first else {
      throw .invalidBody(
        field: given.count > 1 ? given[1] : "add", problem: given.isEmpty ? .missing : .conflicting)
    }
    if verb != "set", body.has("expected") {
      throw .invalidBody(field: "expected", problem: .conflicting)
    }
    let edit: StockEdit
    switch verb {
    case "add": edit = .add(try body.number("add", .positive) ?? 0)
    case "remove": edit = .remove(try body.number("remove", .positive) ?? 0)
    default:
      let level = try body.number("set", .nonNegative) ?? 0
      edit = .set(level, expected: try body.number("expected", .nonNegative))
    }
    try body.finish()
    let id = try requestID(request)
    if case .add(let count) = edit, let index = shop.store.index(of: fruit) {
      // An add that would overflow is refused before anything is journaled, as the
      // command line refuses it.
      let (levels, _) = try readLevels()
      if StockLedger.adding(count, to: levels[index]) == nil {
        throw .command(.overflow(fruit: fruit, stock: levels[index], amount: count))
      }
    }
    let receipt: StockReceipt
    do {
      receipt = try shop.store.edit(fruit, edit, by: shop.name, requestID: id)
    } catch {
      throw .command(CLIError(error))
    }
    let entry = receipt.entry
    if receipt.status == .performed {
      for (change, _) in board.crossings(entry.changes) { metrics.lowCrossing(change.fruit) }
    }
    var headers = [HTTPHeader("Idempotency-Key", id.rawValue)]
    if receipt.replayed { headers.append(HTTPHeader("Idempotent-Replayed", "true")) }
    var response: HTTPResponse
    switch (receipt.status, entry.outcome) {
    case (.idReused, _):
      throw .command(.requestIDReused(entry.id, firstUse: entry.operation))
    case (_, .done):
      let level: Int
      if case .set(let target, _) = edit {
        level = target
      } else {
        level = (try? shop.store.stock(of: fruit)) ?? 0
      }
      response = json(200, APIDocuments.stockEdit(entry, fruit: fruit, level: level, texts))
    case (_, .refused(let shortages)):
      if let shortage = shortages.first {
        response = problem(.command(.notEnoughStock(shortage)), texts)
      } else {
        let stock = (try? shop.store.stock(of: fruit)) ?? 0
        response = problem(
          .command(.overflow(fruit: fruit, stock: stock, amount: entry.operation.action.count)),
          texts)
      }
    case (_, .conflict(let fruit, let expected, let actual)):
      response = problem(
        .command(.stockChanged(fruit: fruit, expected: expected, actual: actual)), texts)
    }
    response.headers += headers
    return response
  }

  private func history(_ query: Query, _ texts: Texts) throws(APIError) -> [UInt8] {
    var journalQuery = JournalQuery(limit: 50)
    do throws(CLIError) {
      if let limit = query["limit"] {
        let count = try Quantity.parse(limit, for: "limit", .positive)
        if count > 1000 { throw CLIError.tooLarge(value: limit, option: "limit") }
        journalQuery.limit = count
      }
      if let since = query["since"] {
        journalQuery.since = try TimeText.date(from: since, for: "since")
      }
      if let shop = query["shop"] { journalQuery.editor = try ShopName.validated(shop) }
    } catch {
      throw .command(error)
    }
    let entries: [JournalEntry]
    do {
      entries = try storage.journal(journalQuery)
    } catch {
      throw .command(CLIError(error))
    }
    var json = JSONWriter(capacity: 256 * entries.count + 32)
    json.object { json in
      json.key("entries")
      json.array { json in
        for entry in entries { APIDocuments.entry(entry, texts, into: &json) }
      }
    }
    return json.bytes
  }

  private func events(_ request: HTTPRequest, _ query: Query, _ texts: Texts)
    throws(APIError) -> HTTPReply
  {
    var after: Int64?
    if let text = request.header("last-event-id") ?? query["after"] {
      guard let value = Int64(text.trimmingWhitespace()), value >= 0 else {
        throw .command(.notWholeNumber(value: text, option: "Last-Event-ID"))
      }
      after = value
    }
    let stream: EventStream
    do {
      stream = try events.open(after: after, texts: texts)
    } catch {
      throw .command(error)
    }
    return .stream(
      HTTPResponse(
        status: 200,
        headers: [
          HTTPHeader("Content-Type", "text/event-stream; charset=utf-8"),
          HTTPHeader("X-Accel-Buffering", "no"),
        ]), stream)
  }

  private func words(_ texts: Texts) -> [UInt8] {
    var json = JSONWriter()
    json.object { json in
      json.member("language", texts.localizer.language)
      json.key("languages")
      json.array { json in strings.languages.forEach { json.string($0) } }
      json.key("strings")
      json.object { json in
        for key in strings.keys where key.hasPrefix("kiosk.") {
          json.member(key, texts.localizer.string(key))
        }
      }
    }
    return json.bytes
  }

  private func signIn(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
    var body = try RequestBody(request.body)
    guard let token = try body.string("token") else {
      throw .invalidBody(field: "token", problem: .missing)
    }
    try body.finish()
    guard access.isRequired else { return HTTPResponse(status: 204) }
    guard let roles = access.roles(ofToken: token) else { throw .unauthorized }
    let session = access.startSession(roles: roles)
    return HTTPResponse(
      status: 204,
      headers: [
        HTTPHeader(
          "Set-Cookie",
          cookie(session, request, maxAge: Int(AccessControl.sessionLifetime.components.seconds)))
      ])
  }

  // MARK: - Parts

  private func cookie(_ value: String, _ request: HTTPRequest, maxAge: Int) -> String {
    AccessControl.cookieName + "=" + value
      + "; Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
      + (request.isSecure ? "; Secure" : "")
  }

  /// The request id: the `Idempotency-Key` header, or a new one.
  private func requestID(_ request: HTTPRequest) throws(APIError) -> RequestID {
    guard let key = request.header("idempotency-key") else { return .random() }
    do {
      return try RequestID(validating: key)
    } catch {
      throw .command(.invalidRequestID(key))
    }
  }

  /// Refuses a browser request from an origin that is neither the server's nor allowed.
  ///
  /// The page's own origin is the one the browser used: the `Host` it sent, when that
  /// host is an address or `localhost`. A host name is the server's only when
  /// `--allow-origin` names it: a page whose name was made to resolve to this server
  /// (DNS rebinding) sends its own name as both `Host` and `Origin`.
  private func checkOrigin(_ request: HTTPRequest) throws(APIError) {
    guard let sent = request.header("origin") else { return }
    let own = origin.withLock { $0 }
    if sent == own || access.allowedOrigins.contains(sent) { return }
    if let host = request.header("host"), Self.isAddress(host),
      sent == (request.isSecure ? "https://" : "http://") + host
    {
      return
    }
    throw .originNotAllowed(sent)
  }

  /// Refuses a request for a host name the server does not answer to when it has no
  /// token file: without a token, a page of another site made to resolve to this server
  /// (DNS rebinding) could otherwise read and order as if it were the kiosk.
  private func checkHost(_ request: HTTPRequest) throws(APIError) {
    guard !access.isRequired, let host = request.header("host"), !Self.isAddress(host) else {
      return
    }
    let scheme = request.isSecure ? "https://" : "http://"
    if access.allowedOrigins.contains(scheme + host) { return }
    throw .hostNotAllowed(host)
  }

  /// Whether a `Host` value names an IPv4 or IPv6 address or `localhost`, with or
  /// without a port.
  static func isAddress(_ host: String) -> Bool {
    var bytes = host.utf8[...]
    if bytes.first == UInt8(ascii: "[") { return bytes.contains(UInt8(ascii: "]")) }
    if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) { bytes = bytes[..<colon] }
    if bytes.lazy.map({ $0 | 0x20 }).elementsEqual("localhost".utf8) { return true }
    // Four dot-separated groups of one to three digits.
    var groups = 1
    var digits = 0
    for byte in bytes {
      if byte == UInt8(ascii: ".") {
        guard digits > 0 else { return false }
        groups += 1
        digits = 0
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 {
        digits += 1
      } else {
        return false
      }
    }
    return groups == 4 && digits > 0
  }

  /// The words of the request's language: `?lang=`, else `Accept-Language`, else the
  /// server's.
  private func language(of request: HTTPRequest, query: Query) -> Texts {
    if let lang = query["lang"], let texts = texts(for: lang) { return texts }
    if let header = request.header("accept-language") {
      for tag in LanguageChoice.ranked(header) {
        if tag == "*" { return defaultTexts }
        if let texts = texts(for: tag) { return texts }
      }
    }
    return defaultTexts
  }

  private func texts(for tag: String) -> Texts? {
    guard let normalized = LanguageTag.normalized(tag) else { return nil }
    if let texts = texts[normalized] { return texts }
    let primary = normalized.split(separator: "-").first.map(String.init) ?? normalized
    return texts[primary]
  }

  private func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
  }

  private func problem(_ error: APIError, _ texts: Texts) -> HTTPResponse {
    var headers = [HTTPHeader("Content-Type", "application/problem+json")]
    switch error {
    case .methodNotAllowed(_, let allowed):
      headers.append(HTTPHeader("Allow", allowed.joined(separator: ", ")))
    case .unauthorized:
      headers.append(HTTPHeader("WWW-Authenticate", #"Bearer realm="juice-maker""#))
    case .shuttingDown:
      headers.append(HTTPHeader("Connection", "close"))
      headers.append(HTTPHeader("Retry-After", "1"))
    default: break
    }
    return HTTPResponse(status: error.status, headers: headers, body: error.document(texts))
  }

  /// Adds the headers every answer has: `nosniff`, `no-store` on the API, the language,
  /// and CORS for an allowed origin.
  private func finish(_ reply: HTTPReply, _ request: HTTPRequest, _ texts: Texts) -> HTTPReply {
    var extra = [
      HTTPHeader("X-Content-Type-Options", "nosniff"),
      HTTPHeader("Content-Language", texts.localizer.language),
    ]
    if request.path.hasPrefix("/api/") || request.path == "/metrics"
      || request.path == "/healthz"
    {
      extra.append(HTTPHeader("Cache-Control", "no-store"))
    }
    if let origin = request.header("origin"), access.allowedOrigins.contains(origin) {
      extra.append(HTTPHeader("Access-Control-Allow-Origin", origin))
      extra.append(HTTPHeader("Vary", "Origin"))
      extra.append(
        HTTPHeader("Access-Control-Expose-Headers", "Idempotency-Key, Idempotent-Replayed"))
    }
    switch reply {
    case .response(var response):
      response.headers += extra
      return .response(response)
    case .stream(var head, let stream):
      head.headers += extra
      return .stream(head, stream)
    }
  }
}

/// Limits of the HTTP API.
enum ServeLimits {
  /// The largest body read.
  static let maximumBody = 16 * 1024
}

/// The last menu and stock documents of each language, with the levels and sequence they
/// were written for: a document asked for again at the same levels is not written again.
final class DocumentCache: Sendable {
  enum Kind: Hashable, Sendable { case menu, stock }

  private struct Key: Hashable {
    let kind: Kind
    let language: String
  }

  private struct Entry {
    let levels: [Int]
    let sequence: Int64
    let body: [UInt8]
  }

  private let entries = Mutex<[Key: Entry]>([:])

  private struct OrderKey: Hashable {
    let juice: Juice.ID
    let count: Int
    let language: String
  }

  private let orders = Mutex<[OrderKey: (name: String, message: String)]>([:])
  /// The most order messages kept, across juices, counts and languages.
  private static let orderLimit = 4096

  /// A juice's name and the message for an order of it, rendered once per juice, count
  /// and language.
  func orderWords(_ juice: Juice.ID, count: Int, _ texts: Texts) -> (
    name: String, message: String
  ) {
    let key = OrderKey(juice: juice, count: count, language: texts.localizer.language)
    if let words = orders.withLock({ $0[key] }) { return words }
    let words = APIDocuments.orderWords(juice, count: count, texts)
    orders.withLock { orders in
      if orders.count >= Self.orderLimit { orders.removeAll() }
      orders[key] = words
    }
    return words
  }

  /// The document for these levels: the one written last if it was written for them,
  /// else `write()`'s.
  func document(
    _ kind: Kind, _ texts: Texts, levels: [Int], sequence: Int64, write: () -> [UInt8]
  ) -> [UInt8] {
    let key = Key(kind: kind, language: texts.localizer.language)
    if let entry = entries.withLock({ $0[key] }), entry.sequence == sequence,
      entry.levels == levels
    {
      return entry.body
    }
    let body = write()
    entries.withLock { $0[key] = Entry(levels: levels, sequence: sequence, body: body) }
    return body
  }
}

/// The version of the menu a server sells, and why a changed menu was not taken up: what
/// `/healthz` says of the menu.
final class MenuStatus: Sendable {
  private let state = Mutex<(version: Int, problem: String?)>((0, nil))

  /// The version and the problem now.
  var current: (version: Int, problem: String?) { state.withLock { $0 } }

  /// Notes the menu's version, and the problem of a changed menu left out (`nil` for none).
  ///
  /// - Returns: Whether the problem is new.
  @discardableResult
  func set(version: Int, problem: String?) -> Bool {
    state.withLock { state in
      defer { state = (version, problem) }
      return state.problem != problem
    }
  }
}
