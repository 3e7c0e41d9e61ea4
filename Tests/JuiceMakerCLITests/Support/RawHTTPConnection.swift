import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP connection over POSIX sockets, for requests a well-behaved client cannot send:
/// bad bytes, huge headers, a body that never comes, a client that dribbles or vanishes.
///
/// Every read waits with `poll(2)` until a deadline and throws `RawHTTPError.timedOut`
/// past it, so a server that never answers fails the test instead of hanging it. The
/// blocking calls are for threads of their own; the `async` ones run there.
final class RawHTTPConnection: Sendable {
  /// The socket.
  let descriptor: Int32
  private let state: Mutex<State>

  private struct State {
    var buffer: [UInt8] = []
    var closed = false
  }

  /// Connects to `host:port`, from `source` (an address of this machine) when given.
  ///
  /// - Parameters:
  ///   - host: An IPv4 or IPv6 address.
  ///   - port: The server's port.
  ///   - source: The address to bind the connection's end to, such as `127.0.0.2`.
  init(host: String = "127.0.0.1", port: Int, source: String? = nil) throws {
    signal(SIGPIPE, SIG_IGN)
    let address = try SocketAddress(host: host, port: port)
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    let descriptor = socket(address.family, type, 0)
    guard descriptor >= 0 else { throw RawHTTPError.system("socket", errno) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    if let source {
      let local = try SocketAddress(host: source, port: 0)
      let bound = local.withPointer { bind(descriptor, $0, $1) }
      guard bound == 0 else {
        let code = errno
        _ = closeDescriptor(descriptor)
        throw RawHTTPError.system("bind \(source)", code)
      }
    }
    let connected = address.withPointer { connect(descriptor, $0, $1) }
    guard connected == 0 else {
      let code = errno
      _ = closeDescriptor(descriptor)
      throw RawHTTPError.system("connect \(host):\(port)", code)
    }
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    self.descriptor = descriptor
    state = Mutex(State())
  }

  deinit {
    close()
  }

  /// Closes the socket; later reads and writes fail.
  func close() {
    let wasOpen = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    if wasOpen { _ = closeDescriptor(descriptor) }
  }

  /// Closes the socket with a reset instead of an orderly end: what a client that crashed
  /// or lost its network leaves.
  func reset() {
    var linger = linger(l_onoff: 1, l_linger: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
    close()
  }

  /// Ends the sending direction: the server reads the end of the request stream.
  func shutdownWriting() {
    #if canImport(Glibc)
      shutdown(descriptor, Int32(SHUT_WR))
    #else
      shutdown(descriptor, SHUT_WR)
    #endif
  }

  // MARK: - Writing

  /// Sends all of `text` as UTF-8.
  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  /// Sends all of `bytes`.
  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        sendBytes(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw RawHTTPError.system("send", errno)
      }
      sent += count
    }
  }

  /// Sends a request: the request line, the header fields, and the body with its
  /// `Content-Length` unless a `Content-Length` or `Transfer-Encoding` field is given.
  func sendRequest(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
  ) throws {
    var head = "\(method) \(target) HTTP/1.1\r\n"
    var fields = headers
    if !fields.contains(where: { $0.0.caseInsensitiveCompare("Host") == .orderedSame }) {
      fields.insert(("Host", "127.0.0.1"), at: 0)
    }
    let framed = fields.contains {
      ["content-length", "transfer-encoding"].contains($0.0.lowercased())
    }
    if let body, !framed {
      fields.append(("Content-Length", String(body.count)))
    }
    for (name, value) in fields {
      head += "\(name): \(value)\r\n"
    }
    head += "\r\n"
    try send(Array(head.utf8) + (body ?? []))
  }

  // MARK: - Reading

  /// Reads what has arrived, waiting until `deadline` for at least one byte.
  ///
  /// - Returns: Whether bytes were added; `false` at the end of the stream or a reset.
  private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let left = deadline - ContinuousClock.now
      let milliseconds = max(
        0,
        Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        throw RawHTTPError.system("poll", errno)
      }
      if ready == 0 { throw RawHTTPError.timedOut(pending: pendingText) }
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        state.withLock { $0.buffer += chunk[..<count] }
        return true
      }
      if count == 0 { return false }
      if errno == EINTR || errno == EAGAIN { continue }
      if errno == ECONNRESET { return false }
      throw RawHTTPError.system("recv", errno)
    }
  }

  private var pendingText: String {
    String(decoding: state.withLock { $0.buffer }, as: UTF8.self)
  }

  /// Takes the first `count` buffered bytes.
  private func take(_ count: Int) -> [UInt8] {
    state.withLock { state in
      defer { state.buffer.removeFirst(count) }
      return Array(state.buffer.prefix(count))
    }
  }

  /// Reads one line, without its `\r\n` or `\n`.
  ///
  /// - Returns: The line, or `nil` when the stream ends first.
  func readLine(until deadline: ContinuousClock.Instant) throws -> String? {
    while true {
      let newline = state.withLock { $0.buffer.firstIndex(of: UInt8(ascii: "\n")) }
      if let newline {
        var line = take(newline + 1)
        line.removeLast()
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      guard try fill(until: deadline) else { return nil }
    }
  }

  /// Reads exactly `count` bytes.
  ///
  /// - Returns: The bytes, or `nil` when the stream ends first.
  func readBytes(_ count: Int, until deadline: ContinuousClock.Instant) throws -> [UInt8]? {
    while state.withLock({ $0.buffer.count }) < count {
      guard try fill(until: deadline) else { return nil }
    }
    return take(count)
  }

  /// Reads until the server closes the connection.
  func readToEnd(until deadline: ContinuousClock.Instant) throws -> [UInt8] {
    while try fill(until: deadline) {}
    return take(state.withLock { $0.buffer.count })
  }

  /// Reads bytes as they come, at most `count`, waiting until `deadline` for the first.
  ///
  /// - Returns: The bytes, empty at the end of the stream.
  func readSome(upTo count: Int, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
    if state.withLock({ $0.buffer.isEmpty }) {
      guard try fill(until: deadline) else { return [] }
    }
    return take(min(count, state.withLock { $0.buffer.count }))
  }

  /// Reads a response's status line and header fields, skipping `1xx` responses.
  func readHead(until deadline: ContinuousClock.Instant) throws -> (
    status: Int, headers: [ServerResponse.Field]
  ) {
    while true {
      guard let statusLine = try readLine(until: deadline) else { throw RawHTTPError.closed }
      let parts = statusLine.split(separator: " ", maxSplits: 2)
      guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
        throw RawHTTPError.malformed("status line: \(statusLine)")
      }
      var headers: [ServerResponse.Field] = []
      while true {
        guard let line = try readLine(until: deadline) else { throw RawHTTPError.closed }
        if line.isEmpty { break }
        guard let colon = line.firstIndex(of: ":") else {
          throw RawHTTPError.malformed("header field: \(line)")
        }
        headers.append(
          .init(
            name: String(line[..<colon]),
            value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
      }
      if (100..<200).contains(status) { continue }
      return (status, headers)
    }
  }

  /// Reads one whole response.
  ///
  /// - Parameters:
  ///   - timeout: How long the whole response may take.
  ///   - method: The request's method: a `HEAD` response has no body.
  func readResponse(timeout: Duration = .seconds(10), method: String = "GET") throws
    -> ServerResponse
  {
    let deadline = ContinuousClock.now + timeout
    let (status, headers) = try readHead(until: deadline)
    let head = ServerResponse(status: status, headers: headers, body: [])
    if method == "HEAD" || status == 204 || status == 304 {
      return head
    }
    if head.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
      var body: [UInt8] = []
      while let chunk = try readChunk(until: deadline) {
        body += chunk
      }
      return ServerResponse(status: status, headers: headers, body: body)
    }
    if let length = head.header("Content-Length").flatMap({ Int($0) }) {
      guard let body = try readBytes(length, until: deadline) else { throw RawHTTPError.closed }
      return ServerResponse(status: status, headers: headers, body: body)
    }
    return ServerResponse(status: status, headers: headers, body: try readToEnd(until: deadline))
  }

  /// Reads one chunk of a chunked body.
  ///
  /// - Returns: The chunk's bytes, or `nil` after the last chunk and its trailer.
  func readChunk(until deadline: ContinuousClock.Instant) throws -> [UInt8]? {
    guard let sizeLine = try readLine(until: deadline) else { throw RawHTTPError.closed }
    let digits = sizeLine.split(separator: ";").first.map(String.init) ?? ""
    guard let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16) else {
      throw RawHTTPError.malformed("chunk size: \(sizeLine)")
    }
    if size == 0 {
      while let trailer = try readLine(until: deadline), !trailer.isEmpty {}
      return nil
    }
    guard let chunk = try readBytes(size, until: deadline),
      try readLine(until: deadline) != nil
    else { throw RawHTTPError.closed }
    return chunk
  }

  /// Waits for the server to close the connection, discarding what it sends.
  ///
  /// - Returns: Whether it closed (an orderly end or a reset) before `timeout`.
  func waitForClose(timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    do {
      while try fill(until: deadline) {
        _ = take(state.withLock { $0.buffer.count })
      }
      return true
    } catch RawHTTPError.system {
      return true
    } catch {
      return false
    }
  }

  // MARK: - Running off the cooperative pool

  /// Sends a request and reads the response on a thread of its own.
  func exchange(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
    timeout: Duration = .seconds(10)
  ) async throws -> ServerResponse {
    let headers = headers.map { [$0.0, $0.1] }
    return try await onOwnThread {
      try self.sendRequest(method, target, headers: headers.map { ($0[0], $0[1]) }, body: body)
      return try self.readResponse(timeout: timeout, method: method)
    }
  }

  /// Reads one response on a thread of its own.
  func response(timeout: Duration = .seconds(10), method: String = "GET") async throws
    -> ServerResponse
  {
    try await onOwnThread { try self.readResponse(timeout: timeout, method: method) }
  }

  /// Waits on a thread of its own for the server to close the connection.
  func closed(within timeout: Duration) async -> Bool {
    (try? await onOwnThread { self.waitForClose(timeout: timeout) }) ?? false
  }
}

/// Why a raw connection failed.
enum RawHTTPError: Error, CustomStringConvertible {
  /// A system call failed with `errno`.
  case system(String, Int32)
  /// Nothing (more) came before the deadline; `pending` is what came of the unfinished part.
  case timedOut(pending: String)
  /// The server closed the connection in the middle of a response.
  case closed
  /// The server sent something that is not HTTP/1.1.
  case malformed(String)

  var description: String {
    switch self {
    case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
    case .timedOut(let pending): "timed out; received so far: \(pending.debugDescription)"
    case .closed: "the server closed the connection"
    case .malformed(let what): "malformed \(what)"
    }
  }
}

/// Runs `body` on a new thread and waits for it without holding a thread of Swift's
/// cooperative pool: blocking socket reads there would stall every other test.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.stackSize = 1 << 20
    thread.start()
  }
}

#if canImport(Glibc)
  private let closeDescriptor = Glibc.close
  private let sendBytes = Glibc.send
#elseif canImport(Darwin)
  private let closeDescriptor = Darwin.close
  private let sendBytes = Darwin.send
#endif

/// An IPv4 or IPv6 socket address.
struct SocketAddress {
  private var storage = sockaddr_storage()
  private let length: socklen_t
  let family: Int32

  init(host: String, port: Int) throws {
    var address4 = sockaddr_in()
    var address6 = sockaddr_in6()
    if inet_pton(AF_INET, host, &address4.sin_addr) == 1 {
      address4.sin_family = sa_family_t(AF_INET)
      address4.sin_port = in_port_t(UInt16(port).bigEndian)
      family = AF_INET
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
      withUnsafeBytes(of: address4) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
    } else if inet_pton(AF_INET6, host, &address6.sin6_addr) == 1 {
      address6.sin6_family = sa_family_t(AF_INET6)
      address6.sin6_port = in_port_t(UInt16(port).bigEndian)
      family = AF_INET6
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
      withUnsafeBytes(of: address6) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
    } else {
      throw RawHTTPError.malformed("address \(host)")
    }
  }

  func withPointer<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    withUnsafePointer(to: storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }
}
