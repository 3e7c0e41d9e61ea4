import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// HTTP/1.1 over plain IPv4 sockets, as the HTTP figures need it: one request on its own
/// connection, and connections opened from a chosen loopback address.
enum RawHTTP {
  /// A connected TCP socket to `host:port`, bound first to `source` when given.
  ///
  /// - Throws: `BenchmarkError.failed` naming the call that failed.
  static func connect(host: String, port: UInt16, from source: String? = nil) throws(BenchmarkError)
    -> Int32
  {
    #if canImport(Glibc)
      let descriptor = socket(
        AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw .failed("socket: \(String(cString: strerror(errno)))") }
    func fail(_ call: String) -> BenchmarkError {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      return .failed("\(call) \(source ?? "")→\(host):\(port): \(reason)")
    }
    if let source {
      var local = address(source, port: 0)
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else { throw fail("bind") }
    }
    var remote = address(host, port: port)
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw fail("connect") }
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return descriptor
  }

  private static func systemConnect(
    _ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
  ) -> Int32 {
    #if canImport(Glibc)
      Glibc.connect(descriptor, address, length)
    #else
      Darwin.connect(descriptor, address, length)
    #endif
  }

  private static func address(_ host: String, port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr(host)
    return address
  }

  /// The bytes of a request that asks the server to close the connection after it.
  static func request(
    _ method: String, _ path: String, host: String, port: UInt16, body: String? = nil,
    keepAlive: Bool = false
  ) -> [UInt8] {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
    if !keepAlive { text += "Connection: close\r\n" }
    if let body {
      text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    } else {
      text += "\r\n"
    }
    return Array(text.utf8)
  }

  /// Writes all of `bytes` to a blocking socket.
  static func write(_ bytes: [UInt8], to descriptor: Int32) throws(BenchmarkError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { bytes in
        send(
          descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset,
          Int32(MSG_NOSIGNAL))
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw .failed("send: \(String(cString: strerror(errno)))") }
      offset += written
    }
  }

  /// The status code of an answer that has arrived far enough, else `nil`.
  static func status(of answer: [UInt8]) -> Int? {
    guard answer.count >= 12 else { return nil }
    let text = String(decoding: answer.prefix(12), as: UTF8.self)
    guard let match = text.firstMatch(of: /^HTTP\/1\.[01] ([0-9]{3})/) else { return nil }
    return Int(match.1)
  }

  /// Sends one request on a connection of its own and reads the whole answer.
  ///
  /// - Returns: The status code and the text after the header section.
  /// - Throws: `BenchmarkError.failed` when the server does not answer within 10 seconds.
  static func exchange(
    _ method: String, _ path: String, host: String, port: UInt16, body: String? = nil
  ) throws(BenchmarkError) -> (status: Int, body: String) {
    let descriptor = try connect(host: host, port: port)
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    try write(request(method, path, host: host, port: port, body: body), to: descriptor)
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else {
        throw .failed("\(method) \(path): \(String(cString: strerror(errno)))")
      }
      if count == 0 { break }
      answer += buffer[0..<count]
    }
    let text = String(decoding: answer, as: UTF8.self)
    guard let match = text.firstMatch(of: /^HTTP\/1\.[01] ([0-9]{3})/), let status = Int(match.1)
    else { throw .failed("\(method) \(path): not an HTTP answer: \(text.prefix(200))") }
    let body = text.firstRange(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
    return (status, body)
  }
}
