import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Many `GET /api/v1/events` streams held open by this process on raw sockets, read with
/// `poll` on the calling thread, to time how long one change takes to reach them all.
///
/// The streams come from the loopback addresses 127.0.0.2 … 127.0.0.40 in turn, so no
/// address holds more than `serve`'s default per-address limit (128) of them: 39 addresses
/// allow 4,992 streams.
final class EventFanout {
  private let host: String
  private let port: UInt16
  private var descriptors: [Int32] = []
  /// What each stream sent that has not been matched yet.
  private var unread: [[UInt8]] = []
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  /// What the change's connection answered.
  private var answer: [UInt8] = []

  static let sources = (2...40).map { "127.0.0.\($0)" }
  private static let live = Array("event: live".utf8)
  private static let event = Array("\nid: ".utf8)

  /// Opens `count` streams and sends each its request.
  ///
  /// - Throws: `BenchmarkError.failed` when a socket cannot be opened or connected.
  init(streams count: Int, host: String, port: UInt16) throws(BenchmarkError) {
    self.host = host
    self.port = port
    try Self.allowDescriptors(count + 256)
    descriptors.reserveCapacity(count)
    do {
      for index in 0..<count {
        let descriptor = try RawHTTP.connect(
          host: host, port: port, from: Self.sources[index % Self.sources.count])
        descriptors.append(descriptor)
        try RawHTTP.write(
          RawHTTP.request("GET", "/api/v1/events", host: host, port: port, keepAlive: true),
          to: descriptor)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      }
    } catch {
      close()
      throw error
    }
    unread = Array(repeating: [], count: count)
  }

  deinit {
    close()
  }

  /// Closes every stream.
  func close() {
    for descriptor in descriptors { _ = systemClose(descriptor) }
    descriptors = []
  }

  /// Waits until every stream has said `event: live`: each is then current and idle.
  ///
  /// - Throws: `BenchmarkError.failed` when a stream ends or `timeout` passes first.
  func waitUntilLive(timeout: Duration) throws(BenchmarkError) {
    var waiting = Set(descriptors.indices)
    let deadline = ContinuousClock.now + timeout
    while !waiting.isEmpty {
      guard ContinuousClock.now < deadline else {
        let index = waiting.first ?? 0
        throw .failed(
          "\(waiting.count) of \(descriptors.count) event streams were not live after \(timeout);"
            + " one had said: \(String(decoding: unread[index].prefix(300), as: UTF8.self))")
      }
      try pollOnce(waiting, until: deadline) { index in
        guard let end = Self.find(Self.live, in: unread[index]) else { return }
        unread[index].removeSubrange(..<end)
        waiting.remove(index)
      }
    }
  }

  /// Makes one change and times its event's arrival on every stream.
  ///
  /// - Parameters:
  ///   - request: The bytes of a request that changes the store, sent on a connection of
  ///     its own from 127.0.0.1 just after the clock starts.
  ///   - timeout: How long to wait for the event.
  /// - Returns: Each stream's delay from just before the request is sent to the moment
  ///   its event is read; `nil` for a stream it did not reach in time. And the status of
  ///   the change's answer.
  func deliveries(of request: [UInt8], timeout: Duration) throws(BenchmarkError) -> (
    delays: [Duration?], status: Int
  ) {
    let changer = try RawHTTP.connect(host: host, port: port)
    defer { _ = systemClose(changer) }
    var delays: [Duration?] = Array(repeating: nil, count: descriptors.count)
    var waiting = Set(descriptors.indices)
    let start = ContinuousClock.now
    try RawHTTP.write(request, to: changer)
    _ = fcntl(changer, F_SETFL, fcntl(changer, F_GETFL) | O_NONBLOCK)
    answer = []
    let deadline = start + timeout
    while !waiting.isEmpty && ContinuousClock.now < deadline {
      try pollOnce(waiting, until: deadline, also: changer) { index in
        guard let end = Self.find(Self.event, in: unread[index]) else { return }
        delays[index] = ContinuousClock.now - start
        unread[index].removeSubrange(..<end)
        waiting.remove(index)
      }
    }
    // The answer came before the last event in all but pathological runs; wait briefly.
    let answerDeadline = ContinuousClock.now + .seconds(5)
    while RawHTTP.status(of: answer) == nil && ContinuousClock.now < answerDeadline {
      try pollOnce([], until: answerDeadline, also: changer) { _ in }
    }
    return (delays, RawHTTP.status(of: answer) ?? 0)
  }

  /// Waits for any of the streams in `indices` (and `extra`, whose bytes go to `answer`) to
  /// be readable, reads what each has, and calls `received` with the index of every stream
  /// that got bytes.
  private func pollOnce(
    _ indices: Set<Int>, until deadline: ContinuousClock.Instant, also extra: Int32 = -1,
    _ received: (Int) -> Void
  ) throws(BenchmarkError) {
    var polled = indices.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
    var owners = Array(indices)
    if extra >= 0 {
      polled.append(pollfd(fd: extra, events: Int16(POLLIN), revents: 0))
      owners.append(-1)
    }
    let remaining = deadline - ContinuousClock.now
    let milliseconds = max(0, Int32(min(remaining.seconds * 1000, 1000).rounded(.up)))
    let ready = poll(&polled, nfds_t(polled.count), milliseconds)
    if ready < 0 && errno != EINTR {
      throw .failed("poll: \(String(cString: strerror(errno)))")
    }
    guard ready > 0 else { return }
    for (position, entry) in polled.enumerated() where entry.revents != 0 {
      let owner = owners[position]
      while true {
        let count = recv(entry.fd, &buffer, buffer.count, 0)
        if count > 0 {
          if owner >= 0 {
            unread[owner] += buffer[0..<count]
          } else {
            answer += buffer[0..<count]
          }
          continue
        }
        if count < 0 && errno == EINTR { continue }
        if count == 0 && owner >= 0 {
          throw .failed(
            "an event stream ended; it had said: \(String(decoding: unread[owner].prefix(300), as: UTF8.self))"
          )
        }
        break
      }
      if owner >= 0 { received(owner) }
    }
  }

  /// The end of the first occurrence of `pattern` in `bytes`.
  private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    for start in 0...(bytes.count - pattern.count)
    where bytes[start] == pattern[0] && bytes[start..<start + pattern.count].elementsEqual(pattern)
    {
      return start + pattern.count
    }
    return nil
  }

  /// Raises this process's soft limit of open files to at least `count`, within the hard
  /// limit.
  private static func allowDescriptors(_ count: Int) throws(BenchmarkError) {
    var limit = rlimit()
    getrlimit(RLIMIT_NOFILE_VALUE, &limit)
    guard limit.rlim_cur < rlim_t(count) else { return }
    guard limit.rlim_max >= rlim_t(count) else {
      throw .failed("\(count) open files are needed; the hard limit is \(limit.rlim_max)")
    }
    limit.rlim_cur = rlim_t(count)
    guard setrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else {
      throw .failed("setrlimit: \(String(cString: strerror(errno)))")
    }
  }

  #if canImport(Glibc)
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
  #endif
}

private func systemClose(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
