#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the line shop's input a line at a time, each line at most `limit` bytes.
///
/// An over-long line is reported once as `.tooLong` and the rest of it, up to its line
/// break, is read and dropped without being kept, so a huge line costs neither memory
/// nor time. A read error is reported as `.failed`, apart from the end of input.
struct ShopLineReader {
  /// What one read gave.
  enum Line: Hashable, Sendable {
    /// A line, without its line break (`\n` or `\r\n`).
    case line(String)
    /// A line longer than `limit` bytes, dropped.
    case tooLong
    /// The end of input.
    case end
    /// The input cannot be read; the system's words for why.
    case failed(String)
  }

  /// The most bytes a line may have.
  static let limit = 4096

  private enum Source {
    case descriptor(Int32)
    case lines(any LineInput)
  }

  private var source: Source
  /// Bytes read past the last line given, fewer than a line's limit unless they hold a
  /// line break.
  private var buffer: [UInt8] = []
  /// The buffer each read fills, reused.
  private var chunk = [UInt8](repeating: 0, count: 65536)
  private var ended = false

  /// Reads standard input itself.
  init(descriptor: Int32) {
    source = .descriptor(descriptor)
  }

  /// Reads lines another reader gives, applying the same limit.
  init(_ lines: any LineInput) {
    source = .lines(lines)
  }

  /// The next line, an over-long line's notice, the end, or a failure.
  mutating func next() -> Line {
    switch source {
    case .lines(var lines):
      let line = lines.readLine()
      source = .lines(lines)
      guard let line else { return .end }
      return line.utf8.count > Self.limit ? .tooLong : .line(line)
    case .descriptor(let descriptor):
      return next(from: descriptor)
    }
  }

  private mutating func next(from descriptor: Int32) -> Line {
    var dropping = false
    while true {
      if let newline = Self.lineBreak(in: buffer, upTo: buffer.count) {
        defer { buffer.removeSubrange(...newline) }
        var end = newline
        if end > 0, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if dropping || end > Self.limit { return .tooLong }
        return .line(String(decoding: buffer[..<end], as: UTF8.self))
      }
      if buffer.count > Self.limit + 1 {
        // Over the limit with no line break yet: keep nothing of this line.
        buffer.removeAll(keepingCapacity: true)
        dropping = true
      }
      if ended {
        defer { buffer.removeAll() }
        if dropping { return .tooLong }
        return buffer.isEmpty ? .end : .line(String(decoding: buffer, as: UTF8.self))
      }
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        if dropping {
          // Only what follows this line's break is kept; the rest is never copied.
          guard let newline = Self.lineBreak(in: chunk, upTo: count) else {
            continue
          }
          buffer.append(contentsOf: chunk[newline..<count])
        } else {
          buffer.append(contentsOf: chunk[..<count])
        }
      } else if count == 0 {
        ended = true
      } else if errno == EINTR {
        continue
      } else if errno == EAGAIN {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, -1)
      } else {
        return .failed(String(cString: strerror(errno)))
      }
    }
  }

  /// The index of the first line break among the first `count` bytes, found with
  /// `memchr(3)`.
  private static func lineBreak(in bytes: [UInt8], upTo count: Int) -> Int? {
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress, count > 0,
        let found = memchr(base, Int32(UInt8(ascii: "\n")), count)
      else { return nil }
      return base.distance(to: UnsafeRawPointer(found))
    }
  }
}
