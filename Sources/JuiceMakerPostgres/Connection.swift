import CLibPQ
import FoundationEssentials
import JuiceMakerCatalog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One libpq connection to a server, not safe to share between threads.
///
/// Statements run with text parameters and text results. Named statements are
/// prepared on the server the first time they run on a connection, and again after
/// a reconnection. Every error names the SQLSTATE and carries the server's message
/// with the URI's passwords scrubbed.
final class Connection {
  /// Where the connection goes.
  let uri: ConnectionURI
  /// How long connecting may take before it fails; libpq's `connect_timeout`, unless
  /// the URI or `PGCONNECT_TIMEOUT` sets one.
  let connectTimeout: Duration
  /// The server's timeouts for the connection's statements, unless the URI's `options`
  /// (or `PGOPTIONS`) set them; `nil` leaves the server's settings.
  let timeouts: SessionTimeouts?
  private var handle: OpaquePointer?
  private var prepared: Set<String> = []

  /// Connects to the server.
  ///
  /// - Throws: `PostgresError` with `connectionLost` set when no connection could be
  ///   made: a malformed URI, a server that is down or unreachable within the
  ///   timeout, a refused password.
  init(uri: ConnectionURI, connectTimeout: Duration, timeouts: SessionTimeouts? = nil)
    throws(PostgresError)
  {
    self.uri = uri
    self.connectTimeout = connectTimeout
    self.timeouts = timeouts
    try connect()
  }

  deinit {
    if let handle { PQfinish(handle) }
  }

  /// Whether the connection is believed usable: it was made and nothing has failed
  /// on it for want of a connection since.
  var isOpen: Bool {
    guard let handle else { return false }
    return PQstatus(handle) == CONNECTION_OK
  }

  /// The server process serving this connection, for `pg_terminate_backend`.
  var backendPID: Int32 {
    handle.map { PQbackendPID($0) } ?? 0
  }

  /// Closes the connection, if open, and opens a new one.
  ///
  /// Statements prepared on the old connection are prepared again when next run.
  ///
  /// - Throws: `PostgresError` when no connection could be made.
  func connect() throws(PostgresError) {
    if let handle {
      PQfinish(handle)
      self.handle = nil
    }
    prepared = []
    var keywords = ["fallback_application_name"]
    var values = ["juice-maker"]
    if getenv("PGCONNECT_TIMEOUT") == nil {
      // Before the URI, so that the URI's own connect_timeout wins.
      let seconds = max(2, connectTimeout.components.seconds)
      keywords.append("connect_timeout")
      values.append(String(seconds))
    }
    keywords.append("dbname")
    values.append(uri.text)
    if let timeouts {
      // After the URI, so that it replaces the URI's own `options`; which follow the
      // timeouts, so that a `-c lock_timeout=…` the user gives wins.
      let given =
        Self.parameter("options", of: uri.text)
        ?? getenv("PGOPTIONS").map {
          String(cString: $0)
        }
      keywords.append("options")
      values.append(
        [timeouts.options, given].compactMap { $0 }.filter { !$0.isEmpty }
          .joined(separator: " "))
    }
    // After the URI, so that it replaces the URI's own `passfile`.
    let unreadPasswordFile = PasswordFile.unsafe(for: uri)
    if unreadPasswordFile != nil {
      keywords.append("passfile")
      values.append(PasswordFile.absent)
    }
    if let problem = Self.libraryProblem() {
      throw PostgresError(code: "", message: problem, connectionLost: true)
    }
    // Started without blocking, so that the notice processor is in place before the
    // server says anything: a server shutting down sends a warning to a connection
    // still starting up, which libpq's default processor would print.
    let connection = withTerminatedCStrings(keywords) { keywords in
      withTerminatedCStrings(values) { values in
        PQconnectStartParams(keywords, values, 1)
      }
    }
    guard let connection else {
      throw PostgresError(
        code: "", message: "libpq could not allocate a connection", connectionLost: true)
    }
    // Warnings and notices (such as the one before an immediate shutdown) are not
    // printed: the error that follows says what happened.
    PQsetNoticeProcessor(connection, { _, _ in }, nil)
    do {
      try Self.complete(connection)
    } catch {
      var message = uri.scrub(error.message)
      if let unreadPasswordFile {
        message += "; " + unreadPasswordFile.reason
      }
      PQfinish(connection)
      throw PostgresError(code: "", message: message, connectionLost: true)
    }
    handle = connection
  }

  /// Why libpq cannot be loaded (CLibPQLoader loads it on first use), or `nil` once it is.
  static func libraryProblem() -> String? {
    var reason = [CChar](repeating: 0, count: 512)
    return juice_pq_load(&reason, reason.count) == 1
      ? nil
      : String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Drives a connection started with `PQconnectStartParams` until it is made, fails,
  /// or takes longer than its `connect_timeout` (libpq leaves the timeout to the caller
  /// of `PQconnectPoll`).
  ///
  /// - Throws: `PostgresError` with libpq's reason, not yet scrubbed of passwords.
  private static func complete(_ connection: OpaquePointer) throws(PostgresError) {
    func failure(_ reason: String? = nil) -> PostgresError {
      PostgresError(
        code: "", message: reason ?? trimmed(String(cString: PQerrorMessage(connection))),
        connectionLost: true)
    }
    guard PQstatus(connection) != CONNECTION_BAD else { throw failure() }
    let seconds = connectTimeoutSeconds(of: connection)
    let deadline = seconds > 0 ? ContinuousClock.now + .seconds(seconds) : nil
    var state = PGRES_POLLING_WRITING
    while state != PGRES_POLLING_OK {
      guard state != PGRES_POLLING_FAILED else { throw failure() }
      let socket = PQsocket(connection)
      guard socket >= 0 else { throw failure() }
      var waiting = pollfd(
        fd: socket, events: Int16(state == PGRES_POLLING_READING ? POLLIN : POLLOUT),
        revents: 0)
      var milliseconds: Int32 = -1
      if let deadline {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw failure("timeout expired") }
        milliseconds = Int32(
          clamping: left.components.seconds * 1000 + left.components.attoseconds
            / 1_000_000_000_000_000
            + 1)
      }
      let ready = poll(&waiting, 1, milliseconds)
      if ready < 0, errno != EINTR { throw failure(String(cString: strerror(errno))) }
      if ready == 0 { continue }
      state = PQconnectPoll(connection)
    }
  }

  /// The value of a parameter of a connection URI as libpq reads it, or `nil` when the
  /// URI does not set it or cannot be read.
  private static func parameter(_ name: String, of uri: String) -> String? {
    guard let options = PQconninfoParse(uri, nil) else { return nil }
    defer { PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == name {
        return option.pointee.val.map { String(cString: $0) }
      }
      option += 1
    }
    return nil
  }

  /// The connection's `connect_timeout` in seconds, as libpq reads it (values from 1
  /// to 2 mean 2); 0 waits for ever.
  private static func connectTimeoutSeconds(of connection: OpaquePointer) -> Int {
    guard let options = PQconninfo(connection) else { return 0 }
    defer { PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == "connect_timeout" {
        let value = option.pointee.val.map { Int(String(cString: $0)) ?? 0 } ?? 0
        return value > 0 ? max(2, value) : 0
      }
      option += 1
    }
    return 0
  }

  // MARK: - Statements

  /// Runs one or more statements without parameters, returning the last result.
  ///
  /// - Throws: `PostgresError` for the first statement that fails; later
  ///   statements of the text do not run.
  @discardableResult
  func execute(_ sql: String) throws(PostgresError) -> QueryResult {
    let handle = try connected()
    return try check(PQexec(handle, sql))
  }

  /// Runs one statement with text parameters (`$1`, `$2`, …; `nil` is `NULL`).
  @discardableResult
  func execute(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> QueryResult {
    let handle = try connected()
    let result = withCStrings(parameters) { values in
      PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
    }
    return try check(result)
  }

  /// Runs a named statement, preparing it on this connection the first time.
  ///
  /// - Parameters:
  ///   - name: The statement's name on the server, unique per SQL text.
  ///   - sql: The statement, with `$1`, `$2`, … for the parameters.
  ///   - parameters: Text parameters; `nil` is `NULL`.
  @discardableResult
  func execute(prepared name: String, _ sql: String, _ parameters: [String?])
    throws(PostgresError) -> QueryResult
  {
    let handle = try connected()
    if !prepared.contains(name) {
      try check(PQprepare(handle, name, sql, Int32(parameters.count), nil))
      prepared.insert(name)
    }
    let result = withCStrings(parameters) { values in
      PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
    }
    return try check(result)
  }

  /// Runs several statements in one round trip and reports each one's success.
  ///
  /// `sent` is called once the text is sent, before any result is read.
  ///
  /// - Returns: One entry per statement that ran, in order: `nil` for success, or
  ///   its error; statements after a failure do not run.
  /// - Throws: `PostgresError` when the text could not be sent or the connection was
  ///   lost before every result arrived.
  func executeEach(_ sql: String, after sent: (() -> Void)? = nil) throws(PostgresError)
    -> [PostgresError?]
  {
    let handle = try connected()
    guard PQsendQuery(handle, sql) == 1 else { throw failure(nil) }
    sent?()
    var outcomes: [PostgresError?] = []
    var lost: PostgresError?
    while let result = PQgetResult(handle) {
      do {
        _ = try check(result)
        outcomes.append(nil)
      } catch {
        if error.connectionLost { lost = error }
        outcomes.append(error)
      }
    }
    if let lost { throw lost }
    return outcomes
  }

  // MARK: - Notifications

  /// Waits until a notification arrives on a channel this connection listens to,
  /// or the timeout passes.
  ///
  /// - Returns: Whether at least one notification arrived; every notification
  ///   that had arrived is consumed.
  /// - Throws: `PostgresError` when the connection is lost.
  func waitForNotification(timeout: Duration) throws(PostgresError) -> Bool {
    let handle = try connected()
    if try drainNotifications(handle) { return true }
    let deadline = ContinuousClock.now + timeout
    while true {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else { return false }
      var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      let (seconds, attoseconds) = remaining.components
      let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0 {
        guard errno == EINTR else {
          throw PostgresError(
            code: "", message: "poll failed: \(String(cString: strerror(errno)))",
            connectionLost: false)
        }
        continue
      }
      if ready > 0, try drainNotifications(handle) { return true }
    }
  }

  private func drainNotifications(_ handle: OpaquePointer) throws(PostgresError) -> Bool {
    guard PQconsumeInput(handle) == 1 else { throw failure(nil) }
    var any = false
    while let notification = PQnotifies(handle) {
      PQfreemem(notification)
      any = true
    }
    return any
  }

  // MARK: - Errors

  private func connected() throws(PostgresError) -> OpaquePointer {
    guard let handle, PQstatus(handle) == CONNECTION_OK else {
      throw PostgresError(code: "08003", message: "the connection is closed", connectionLost: true)
    }
    return handle
  }

  @discardableResult
  private func check(_ result: OpaquePointer?) throws(PostgresError) -> QueryResult {
    guard let result else { throw failure(nil) }
    let status = PQresultStatus(result)
    if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
      return QueryResult(result)
    }
    let error = failure(result)
    PQclear(result)
    throw error
  }

  /// The error of a failed result, or of the connection when there is no result.
  private func failure(_ result: OpaquePointer?) -> PostgresError {
    var code = ""
    var message = ""
    if let result {
      if let field = PQresultErrorField(result, Self.sqlstateField) {
        code = String(cString: field)
      }
      if let field = PQresultErrorField(result, Self.messageField) {
        message = String(cString: field)
      } else if let text = PQresultErrorMessage(result) {
        message = Self.trimmed(String(cString: text))
      }
      message = Self.trimmed(message)
    }
    let lost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
    if message.isEmpty, let handle {
      message = Self.trimmed(String(cString: PQerrorMessage(handle)))
    }
    if message.isEmpty {
      message = "the server sent no message"
    }
    return PostgresError(
      code: code, message: uri.scrub(message),
      connectionLost: lost || PostgresError.endsSession(code))
  }

  /// `PG_DIAG_SQLSTATE` and `PG_DIAG_MESSAGE_PRIMARY`, character constants Swift
  /// does not import.
  private static let sqlstateField = Int32(UInt8(ascii: "C"))
  private static let messageField = Int32(UInt8(ascii: "M"))

  /// libpq's message on one line: each line trimmed, joined with `; `, without the
  /// final period (the messages that show it add their own).
  static func trimmed(_ message: String) -> String {
    var text = message.split(whereSeparator: \.isNewline)
      .map { $0.trimmingWhitespace() }
      .filter { !$0.isEmpty }
      .joined(separator: "; ")
    while text.hasSuffix(".") { text.removeLast() }
    return text
  }
}

/// Calls `body` with the strings as a C array of C strings (`nil` stays `NULL`).
private func withCStrings<Result>(
  _ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> Result
) -> Result {
  let copies = strings.map { $0.flatMap { strdup($0) } }
  defer {
    for copy in copies { free(copy) }
  }
  return body(copies.map { $0.map { UnsafePointer($0) } })
}

/// Calls `body` with the strings as a `NULL`-terminated C array of C strings.
private func withTerminatedCStrings<Result>(
  _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result
) -> Result {
  withCStrings(strings.map { Optional($0) } + [nil]) { body($0) }
}
