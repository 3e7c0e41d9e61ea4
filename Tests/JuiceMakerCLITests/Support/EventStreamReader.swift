import Foundation
import Synchronization
import Testing

/// An open `text/event-stream` response read over a raw connection, one block (the lines
/// up to a blank line) at a time, as `EventSource` reads it.
final class EventStreamReader: Sendable {
  /// The response's status line and header fields.
  let head: ServerResponse
  /// The connection, for closing it or checking how it ends.
  let connection: RawHTTPConnection
  private let chunked: Bool
  private let state = Mutex(State())

  private struct State {
    var pending: [UInt8] = []
    var ended = false
    var received: [UInt8] = []
  }

  /// One block of the stream: an event, a `retry:` setting, or comments.
  struct Block: Sendable, CustomStringConvertible {
    var id: String?
    var event: String?
    var data: String?
    var retry: String?
    var comments: [String] = []
    /// The lines of the block as sent.
    var lines: [String] = []

    /// Whether `EventSource` would dispatch it as an event: it has data.
    var isEvent: Bool { data != nil }

    /// The data as JSON.
    func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
      let data = try #require(data, "no data in \(self)", sourceLocation: sourceLocation)
      return try JSONValue(parsing: Array(data.utf8))
    }

    var description: String { lines.joined(separator: "\\n") }
  }

  /// Opens `GET path` on `port` and reads the response head.
  ///
  /// - Parameters:
  ///   - path: The path and query, such as `/api/v1/events?after=3`.
  ///   - headers: More header fields, such as `Last-Event-ID` or `Authorization`.
  init(
    host: String = "127.0.0.1", port: Int, path: String = "/api/v1/events",
    headers: [(String, String)] = []
  ) async throws {
    let connection = try RawHTTPConnection(host: host, port: port)
    self.connection = connection
    let fields = [("Accept", "text/event-stream")] + headers
    let (status, received) = try await onOwnThread {
      try connection.sendRequest("GET", path, headers: fields)
      return try connection.readHead(until: .now + .seconds(10))
    }
    head = ServerResponse(status: status, headers: received, body: [])
    chunked = head.header("Transfer-Encoding")?.lowercased().contains("chunked") == true
  }

  /// Opens the event stream of `server`.
  convenience init(
    _ server: ServeProcess, path: String = "/api/v1/events", headers: [(String, String)] = []
  ) async throws {
    try await self.init(host: server.host, port: server.port, path: path, headers: headers)
  }

  /// Everything of the body received so far, for failure messages.
  var received: String { String(decoding: state.withLock { $0.received }, as: UTF8.self) }

  /// The next block.
  ///
  /// - Returns: The block, or `nil` when the stream ended.
  /// - Throws: `RawHTTPError.timedOut` when no whole block came within `timeout`.
  func nextBlock(timeout: Duration = .seconds(10)) async throws -> Block? {
    try await onOwnThread { try self.readBlock(until: .now + timeout) }
  }

  /// The next block that is an event, skipping `retry:` settings and comments.
  func nextEvent(timeout: Duration = .seconds(10)) async throws -> Block? {
    try await onOwnThread {
      let deadline = ContinuousClock.now + timeout
      while let block = try self.readBlock(until: deadline) {
        if block.isEvent { return block }
      }
      return nil
    }
  }

  /// Reads blocks until the stream ends, for at most `timeout`.
  ///
  /// - Returns: The blocks read, and whether the stream ended.
  func readToEnd(timeout: Duration) async -> (blocks: [Block], ended: Bool) {
    (try? await onOwnThread {
      let deadline = ContinuousClock.now + timeout
      var blocks: [Block] = []
      do {
        while let block = try self.readBlock(until: deadline) {
          blocks.append(block)
        }
        return (blocks, true)
      } catch {
        return (blocks, false)
      }
    }) ?? ([], false)
  }

  /// Closes the connection.
  func close() {
    connection.close()
  }

  private func readBlock(until deadline: ContinuousClock.Instant) throws -> Block? {
    var block = Block()
    while true {
      guard let line = try readLine(until: deadline) else {
        // A block cut off by the end of the stream is not dispatched.
        return nil
      }
      if line.isEmpty {
        if block.lines.isEmpty { continue }
        return block
      }
      block.lines.append(line)
      if line.hasPrefix(":") {
        block.comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
        continue
      }
      let name: Substring
      var value: Substring
      if let colon = line.firstIndex(of: ":") {
        name = line[..<colon]
        value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
      } else {
        name = Substring(line)
        value = ""
      }
      switch name {
      case "id": block.id = String(value)
      case "event": block.event = String(value)
      case "retry": block.retry = String(value)
      case "data": block.data = block.data.map { $0 + "\n" + value } ?? String(value)
      default: break
      }
    }
  }

  /// One line of the body, decoded from its chunks.
  private func readLine(until deadline: ContinuousClock.Instant) throws -> String? {
    while true {
      let line: String? = state.withLock { state in
        guard let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var bytes = Array(state.pending[..<newline])
        state.pending.removeFirst(newline + 1)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
      }
      if let line { return line }
      if state.withLock({ $0.ended }) { return nil }
      let more: [UInt8]?
      if chunked {
        do {
          more = try connection.readChunk(until: deadline)
        } catch RawHTTPError.closed {
          more = nil
        }
      } else {
        let bytes = try connection.readSome(upTo: 65536, until: deadline)
        more = bytes.isEmpty ? nil : bytes
      }
      state.withLock { state in
        if let more {
          state.pending += more
          state.received += more
        } else {
          state.ended = true
        }
      }
    }
  }
}
