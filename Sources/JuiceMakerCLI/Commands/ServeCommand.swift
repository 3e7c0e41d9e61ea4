import Dispatch
import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerHTTP
import JuiceMakerKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `juice-maker serve [--listen HOST:PORT] …`: the shop over HTTP, a JSON API and a live
/// event stream, until SIGTERM or SIGINT.
///
/// It listens on loopback unless told otherwise; another address needs a token file.
/// The first line it prints is the server's origin.
struct ServeCommand: Command {
  static let listenOption = Option<ListenAddress>(
    spec: OptionSpec(name: "listen", metavariable: "HOST:PORT"),
    convert: { text throws(CLIError) in try ListenAddress(text) })
  static let memoryFlag = Flag("memory")
  static let tokenFileOption = Option.text("token-file", "FILE", completion: .file)
  static let certificateOption = Option.text("tls-cert", "FILE", completion: .file)
  static let keyOption = Option.text("tls-key", "FILE", completion: .file)
  static let originOption = Option.text("allow-origin", "ORIGIN")
  static let connectionsOption = Option.number("max-connections", .positive)
  static let perClientOption = Option.number("max-per-ip", .positive)
  static let idleOption = Option.number("idle-timeout", .positive, metavariable: "SECONDS")
  static let definition = CommandDefinition(
    name: "serve",
    options: [
      listenOption.spec, memoryFlag.spec, tokenFileOption.spec, certificateOption.spec,
      keyOption.spec, originOption.spec, connectionsOption.spec, perClientOption.spec,
      idleOption.spec,
    ], takesJSON: false, loadsMenu: true)

  let context: Context
  let listen: ListenAddress
  let memory: Bool
  let tokenFile: String?
  let tls: (certificate: String, key: String)?
  let origins: Set<String>
  let configuration: HTTPServer.Configuration

  var changesStore: Bool { true }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    listen = try line.value(Self.listenOption) ?? ListenAddress.default
    memory = line.isSet(Self.memoryFlag)
    tokenFile = try line.value(Self.tokenFileOption)
    let certificate = try line.value(Self.certificateOption)
    let key = try line.value(Self.keyOption)
    switch (certificate, key) {
    case (let certificate?, let key?): tls = (certificate, key)
    case (nil, nil): tls = nil
    case (_?, nil):
      throw .optionNeeds(
        option: Self.certificateOption.spec.spelling, other: Self.keyOption.spec.spelling)
    case (nil, _?):
      throw .optionNeeds(
        option: Self.keyOption.spec.spelling, other: Self.certificateOption.spec.spelling)
    }
    var origins: Set<String> = []
    for origin in (try line.value(Self.originOption) ?? "").split(separator: ",") {
      let origin = origin.trimmingWhitespace()
      guard origin.hasPrefix("http://") || origin.hasPrefix("https://"),
        !origin.dropFirst(8).contains("/")
      else {
        throw .invalidOrigin(origin)
      }
      origins.insert(origin)
    }
    self.origins = origins
    if !listen.isLoopback, tokenFile == nil {
      throw .tokenFileNeeded(listen: listen.text)
    }
    let durable = !line.isSet(Self.memoryFlag)
    configuration = HTTPServer.Configuration(
      host: listen.host, port: listen.port,
      threads: ProcessInfo.processInfo.activeProcessorCount,
      // A durable store's operations wait on the disk or the server: they run on threads
      // of their own, so a connection waiting for one never holds up another.
      handlerThreads: durable ? 8 : 0,
      maximumConnections: try line.value(Self.connectionsOption) ?? 4096,
      maximumConnectionsPerClient: try line.value(Self.perClientOption) ?? 128,
      idleTimeout: try line.value(Self.idleOption) ?? 30,
      maximumBodySize: ServeLimits.maximumBody)
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let tokens = try tokenFile.map { path throws(CLIError) in try TokenFile(path: path) }
    var configuration = configuration
    if let tls {
      configuration.tls = (
        try Self.read(tls.certificate, option: Self.certificateOption.spec.spelling),
        try Self.read(tls.key, option: Self.keyOption.spec.spelling)
      )
    }
    var opened: OpenedShop
    if memory {
      let menu = try context.loadMenu(published: .empty)
      let storage = InMemoryStockStorage(
        fruits: menu.catalog.fruits.map(\.id), levels: menu.catalog.fruits.map(\.initialStock),
        journalsOrders: true)
      if !menu.warning.isEmpty {
        context.errorOutput.write(menu.warning.joined(separator: "\n") + "\n")
      }
      opened = OpenedShop(
        context: context.adopting(menu), menu: menu, store: FruitStore(storage: storage),
        storage: storage)
    } else {
      opened = try context.openShop()
    }
    let access = AccessControl(tokenFile: tokens, allowedOrigins: origins)
    /// The answers of one menu; those of a changed menu go on from `previous`'s.
    func answers(_ opened: OpenedShop, continuing previous: ShopAPI?) throws(CLIError) -> ShopAPI {
      try ShopAPI(
        shop: JuiceMaker(
          name: context.shopName, catalog: opened.menu.catalog, store: opened.store),
        storage: opened.storage, strings: opened.context.strings,
        defaultTexts: opened.context.texts, access: access, continuing: previous)
    }
    let first = try answers(opened, continuing: nil)
    first.menuStatus.set(version: opened.menu.version, problem: nil)
    // Swapped whole when the menu changes; a request answers from the one it found.
    let current = CurrentAnswers(first)
    Self.raiseDescriptorLimit()
    signal(SIGPIPE, SIG_IGN)
    let stop = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "juice-maker.serve.signals")
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }
    let server: HTTPServer
    do {
      server = try HTTPServer(configuration: configuration) { request in
        current.respond(to: request)
      }
    } catch {
      throw .cannotListen(address: listen.text, reason: Self.reason(error))
    }
    let origin = (tls == nil ? "http://" : "https://") + listen.authority(port: server.port)
    first.listening(at: origin)
    first.events.start()
    context.say(origin + "/")
    // An in-memory store's levels live in this process: its menu stays as it started.
    let watcher =
      memory
      ? nil : MenuWatcher(context: context, menu: opened.menu)
    while stop.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
      guard let watcher else { continue }
      let api = current.answers
      let start = ContinuousClock.now
      if let menu = watcher.check(storage: opened.storage) {
        do throws(CLIError) {
          let next = try context.reopened(opened, with: menu, busyTimeout: Context.busyTimeout)
          let changed = try answers(next, continuing: api)
          opened = next
          current.install(changed)
          changed.menuStatus.set(version: menu.version, problem: nil)
          changed.events.announceMenu(version: menu.version, problem: nil)
          let took = ContinuousClock.now - start
          context.say(
            context.texts.string(
              "serve.menu.changed", .int(menu.version), .int(menu.catalog.juices.count),
              .int(Int(took / .milliseconds(1)))))
        } catch {
          // The store did not answer: the menu is taken up at a later change.
          api.menuStatus.set(version: opened.menu.version, problem: error.message(context.texts))
        }
      } else if api.menuStatus.set(version: opened.menu.version, problem: watcher.problem) {
        api.events.announceMenu(version: opened.menu.version, problem: watcher.problem)
        if let problem = watcher.problem { context.errorOutput.write(problem + "\n") }
      }
    }
    let api = current.answers
    // Stop taking connections, end the event streams with a hint to come back, and let
    // the requests in flight finish before the daemon closes every connection.
    server.quiesce()
    api.drain()
    let deadline = ContinuousClock.now + .seconds(10)
    while server.activeRequests > 0, ContinuousClock.now < deadline {
      Threads.sleep(seconds: 0.01)
    }
    server.stop()
    sources.forEach { $0.cancel() }
  }

  private static func reason(_ error: HTTPServerError) -> String {
    switch error {
    case .invalidHost(let host): host
    case .cannotListen(_, _, let reason): reason
    }
  }

  /// A PEM file's text.
  private static func read(_ path: String, option: String) throws(CLIError) -> String {
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw .unreadableFile(path: path, option: option, reason: FailureReason.of(error))
    }
  }

  /// Raises the limit of open files to the most allowed: every connection is one.
  private static func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
  }
}

#if canImport(Glibc)
  private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
  private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
#endif

/// Where `serve --listen` listens: `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for loopback.
struct ListenAddress: Sendable {
  static let `default` = ListenAddress(host: "127.0.0.1", port: 8080, text: "127.0.0.1:8080")

  let host: String
  let port: UInt16
  let text: String

  private init(host: String, port: UInt16, text: String) {
    self.host = host
    self.port = port
    self.text = text
  }

  /// Reads an address.
  ///
  /// - Throws: `CLIError.invalidListen` unless it is a numeric IPv4 or bracketed IPv6
  ///   address (or nothing, for loopback), a colon, and a port 0–65535.
  init(_ text: String) throws(CLIError) {
    self.text = text
    guard let colon = text.lastIndex(of: ":"),
      let port = UInt16(text[text.index(after: colon)...])
    else {
      throw .invalidListen(text)
    }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") {
      host = String(host.dropFirst().dropLast())
      var address = in6_addr()
      guard inet_pton(AF_INET6, host, &address) == 1 else { throw .invalidListen(text) }
    } else if host.isEmpty || host == "localhost" {
      host = "127.0.0.1"
    } else {
      var address = in_addr()
      guard inet_pton(AF_INET, host, &address) == 1 else { throw .invalidListen(text) }
    }
    self.host = host
    self.port = port
  }

  /// Whether only this machine can connect.
  var isLoopback: Bool {
    host == "::1" || host.hasPrefix("127.")
  }

  /// `host:port` as an origin writes it.
  func authority(port: UInt16) -> String {
    (host.contains(":") ? "[" + host + "]" : host) + ":" + String(port)
  }
}

/// The answers of the menu a server sells now: a request answers from the one it found,
/// which lives until its last request ends.
final class CurrentAnswers: Sendable {
  private let current: Mutex<ShopAPI>

  init(_ first: ShopAPI) {
    current = Mutex(first)
  }

  /// The answers now.
  var answers: ShopAPI {
    current.withLock { $0 }
  }

  /// Makes `answers` the answers of every request from now on.
  func install(_ answers: ShopAPI) {
    current.withLock { $0 = answers }
  }

  /// Answers a request with the answers now.
  func respond(to request: HTTPRequest) -> HTTPReply {
    answers.respond(to: request)
  }
}
