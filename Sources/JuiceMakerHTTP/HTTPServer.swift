package import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on GNU libmicrohttpd.
///
/// The server owns one libmicrohttpd daemon and turns its C callbacks into Swift:
/// each request reaches `handler` once, with its whole body, on one of the daemon's
/// threads, and the handler's reply is sent. Nothing else in the package sees C.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///   .response(HTTPResponse(status: 200, body: Array("hello".utf8)))
/// }
/// print(server.port)  // the port the system chose
/// ```
public final class HTTPServer: Sendable {
  /// How the server listens and what it allows.
  public struct Configuration: Sendable {
    /// The IPv4 or IPv6 address to listen on.
    public var host: String
    /// The port; 0 lets the system choose one.
    public var port: UInt16
    /// How many threads of the daemon read and write connections.
    public var threads: Int
    /// How many threads run handlers that may block (on a disk or a database server),
    /// each request's connection suspended meanwhile; 0 runs handlers on the daemon's
    /// threads, for handlers that never block.
    public var handlerThreads: Int
    /// How many connections may be open at once.
    public var maximumConnections: Int
    /// How many connections one client address may hold open at once.
    public var maximumConnectionsPerClient: Int
    /// How long, in seconds, a connection may stay idle; event streams have no limit.
    public var idleTimeout: Int
    /// The largest body read; a larger one reaches the handler with
    /// `HTTPRequest.bodyTooLarge`.
    public var maximumBodySize: Int
    /// The memory of one connection, which bounds its request line and header fields:
    /// a request whose header section does not fit is answered 431 by the daemon.
    public var connectionMemory: Int
    /// A PEM certificate chain and its key, to serve HTTPS.
    public var tls: (certificate: String, key: String)?

    /// A configuration; every limit has a default.
    public init(
      host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 2, handlerThreads: Int = 0,
      maximumConnections: Int = 4096, maximumConnectionsPerClient: Int = 128,
      idleTimeout: Int = 30, maximumBodySize: Int = 16 * 1024, connectionMemory: Int = 8 * 1024,
      tls: (certificate: String, key: String)? = nil
    ) {
      self.host = host
      self.port = port
      self.threads = threads
      self.handlerThreads = handlerThreads
      self.maximumConnections = maximumConnections
      self.maximumConnectionsPerClient = maximumConnectionsPerClient
      self.idleTimeout = idleTimeout
      self.maximumBodySize = maximumBodySize
      self.connectionMemory = connectionMemory
      self.tls = tls
    }
  }

  /// The configuration the server runs with.
  public let configuration: Configuration
  /// The port the server listens on.
  public let port: UInt16
  private let core: ServerCore
  private let daemon: Mutex<UInt>
  /// The C strings the daemon was given, freed when it stops.
  private let keep: Mutex<[UInt]>

  /// Starts a server.
  ///
  /// - Parameters:
  ///   - configuration: Where to listen and the limits.
  ///   - handler: Answers each request, on one of the server's threads.
  /// - Throws: `HTTPServerError` when the server cannot listen.
  public init(
    configuration: Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPReply
  ) throws(HTTPServerError) {
    self.configuration = configuration
    let core = ServerCore(
      handler: handler, maximumBodySize: configuration.maximumBodySize,
      handlerThreads: configuration.handlerThreads)
    self.core = core
    daemon = Mutex(0)
    keep = Mutex([])
    var address = try SocketAddress(host: configuration.host, port: configuration.port)
    // CMicroHTTPDLoader loads the library on first use: say so when it cannot.
    var loadFailure = [CChar](repeating: 0, count: 512)
    guard juice_mhd_load(&loadFailure, loadFailure.count) == 1 else {
      throw .cannotListen(
        host: configuration.host, port: configuration.port,
        reason: String(
          decoding: loadFailure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    var kept: [UnsafeMutablePointer<CChar>] = []
    let isIPv6 = address.isIPv6
    let started: OpaquePointer? = address.withPointer { socketAddress in
      var options = Self.daemonOptions(configuration)
      options.append(
        MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: socketAddress))
      options.append(
        MHD_OptionItem(
          option: .NOTIFY_COMPLETED,
          value: unsafeBitCast(requestCompleted as MHD_RequestCompletedCallback, to: Int.self),
          ptr_value: Unmanaged.passUnretained(core).toOpaque()))
      options.append(
        MHD_OptionItem(
          option: .UNESCAPE_CALLBACK,
          value: unsafeBitCast(keepEscapes as UnescapeCallback, to: Int.self), ptr_value: nil))
      if let tls = configuration.tls {
        let certificate = strdup(tls.certificate)
        let key = strdup(tls.key)
        kept += [certificate, key].compactMap { $0 }
        options.append(
          MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: certificate))
        options.append(
          MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: key))
      }
      options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
      var flags = Self.daemonFlags(configuration)
      if isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
      // The daemon's callbacks reach the core through this unretained pointer: the
      // server keeps the core and outlives its daemon (`deinit` stops it).
      let context = Unmanaged.passUnretained(core).toOpaque()
      return options.withUnsafeMutableBufferPointer { options in
        juice_mhd_start(flags, 0, nil, nil, accessHandler, context, options.baseAddress)
      }
    }
    guard let started else {
      let reason = String(cString: strerror(errno))
      kept.forEach { free($0) }
      throw .cannotListen(host: configuration.host, port: configuration.port, reason: reason)
    }
    port = juice_mhd_port(started)
    daemon.withLock { $0 = UInt(bitPattern: started) }
    keep.withLock { $0 = kept.map { UInt(bitPattern: $0) } }
  }

  deinit {
    stop()
  }

  /// Stops accepting connections; those open are still served.
  public func quiesce() {
    daemon.withLock { daemon in
      guard let pointer = OpaquePointer(bitPattern: daemon) else { return }
      let socket = MHD_quiesce_daemon(pointer)
      if socket >= 0 { close(socket) }
    }
  }

  /// How many requests are being answered, event streams included.
  public var activeRequests: Int {
    core.active.load(ordering: .relaxed)
  }

  /// Closes every connection and stops the daemon; event streams must have been
  /// finished first.
  public func stop() {
    let stopped = daemon.withLock { daemon in
      defer { daemon = 0 }
      return daemon
    }
    guard let pointer = OpaquePointer(bitPattern: stopped) else { return }
    MHD_stop_daemon(pointer)
    core.workers?.stop()
    keep.withLock { kept in
      kept.forEach { free(UnsafeMutableRawPointer(bitPattern: $0)) }
      kept = []
    }
  }

  // MARK: - The daemon's options

  /// The daemon's flags for a configuration: internal epoll threads, suspendable
  /// connections for event streams, TLS when asked.
  package static func daemonFlags(_ configuration: Configuration) -> UInt32 {
    var flags =
      MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
      | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
    if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
    return UInt32(flags)
  }

  /// The daemon's limits for a configuration, without `MHD_OPTION_END`.
  package static func daemonOptions(_ configuration: Configuration) -> [MHD_OptionItem] {
    [
      MHD_OptionItem(
        option: .THREAD_POOL_SIZE, value: max(1, configuration.threads),
        ptr_value: nil),
      MHD_OptionItem(
        option: .CONNECTION_LIMIT, value: configuration.maximumConnections,
        ptr_value: nil),
      MHD_OptionItem(
        option: .PER_IP_CONNECTION_LIMIT,
        value: configuration.maximumConnectionsPerClient, ptr_value: nil),
      MHD_OptionItem(
        option: .CONNECTION_TIMEOUT, value: configuration.idleTimeout, ptr_value: nil),
      MHD_OptionItem(
        option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemory,
        ptr_value: nil),
      MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: 4096, ptr_value: nil),
    ]
  }
}

typealias UnescapeCallback =
  @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?
  ) -> Int

/// Leaves the path and the query as sent: the router decodes each segment and value
/// itself, so an encoded `/` stays inside its segment.
private let keepEscapes: UnescapeCallback = { _, _, text in
  guard let text else { return 0 }
  return strlen(text)
}
