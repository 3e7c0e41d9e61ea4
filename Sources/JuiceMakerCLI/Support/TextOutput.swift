import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the command writes text: standard output, standard error, or a buffer in tests.
public protocol TextOutput: Sendable {
  /// Writes text as it is; the caller adds line breaks.
  func write(_ text: String)

  /// The first write that failed, if any; once one has, later writes are dropped.
  var failure: OutputFailure? { get }
}

// MARK: - Default implementations

extension TextOutput {
  /// An output that cannot fail, such as a buffer, has no failure.
  public var failure: OutputFailure? { nil }
}

/// A write to standard output or standard error that failed, and why.
public struct OutputFailure: Error, Equatable, Sendable {
  /// The streams a command writes to.
  public enum Stream: String, Sendable {
    case standardOutput
    case standardError
  }

  /// The stream that could not be written.
  public let stream: Stream
  /// The `errno` of the failed `write(2)`.
  public let code: Int32

  /// The system's words for `code` (`No space left on device`).
  public var reason: String {
    String(cString: strerror(code))
  }

  public init(stream: Stream, code: Int32) {
    self.stream = stream
    self.code = code
  }
}

/// Writes to a file descriptor with `write(2)`, retrying short writes, and remembers the
/// first write that failed so the command can end with exit 74.
///
/// Each `write(_:)` is one piece of text written whole or not at all, as far as the
/// descriptor allows: a write that fails part way into a regular file (a full disk) is
/// cut back to where it started, so a `--json` document is not left truncated (unless
/// the file is open for appending, which other processes may share).
public struct FileDescriptorOutput: TextOutput {
  private let descriptor: Int32
  private let stream: OutputFailure.Stream
  private let state: State

  /// Standard output.
  public static let standardOutput = FileDescriptorOutput(descriptor: 1)
  /// Standard error.
  public static let standardError = FileDescriptorOutput(descriptor: 2)

  /// Creates an output that writes to a descriptor it does not own; its failures are
  /// named as standard error's for descriptor 2, else as standard output's.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    stream = descriptor == 2 ? .standardError : .standardOutput
    state = State()
  }

  public var failure: OutputFailure? {
    state.failure.withLock { $0 }
  }

  public func write(_ text: String) {
    guard failure == nil else { return }
    // The text's own UTF-8, not a copy: a large menu is megabytes of it.
    var text = text
    text.withUTF8 { writeWhole($0) }
  }

  /// Writes bytes whole, or cuts back what a failure left of them.
  private func writeWhole(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    let start = lseek(descriptor, 0, SEEK_CUR)
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, UnsafeRawPointer(base + offset), bytes.count - offset)
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&ready, 1, -1)
          continue
        }
        if offset > 0 && start >= 0 { cutBack(to: start) }
        state.failure.withLock { $0 = $0 ?? OutputFailure(stream: stream, code: code) }
        return
      }
      offset += written
    }
  }

  /// Removes a partial write from a regular file this process writes at its own offset.
  ///
  /// A file opened for appending is left as it is: other processes may have appended
  /// after `start`, and cutting back would remove their lines.
  private func cutBack(to start: off_t) {
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      fcntl(descriptor, F_GETFL) & O_APPEND == 0
    else { return }
    _ = ftruncate(descriptor, start)
  }

  /// Makes sure descriptors 0, 1 and 2 are open, before anything else opens a file.
  ///
  /// A command started with one of them closed (`>&-`) would otherwise hand that number
  /// to the next file it opens (the store, a socket), and write its output there. A
  /// closed one is filled with `/dev/null` opened for reading only, so writes to it still
  /// fail (`EBADF`) and are reported.
  public static func reserveStandardDescriptors() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
      let opened = open("/dev/null", O_RDONLY)
      if opened >= 0 && opened != descriptor {
        _ = dup2(opened, descriptor)
        _ = close(opened)
      }
    }
  }

  /// The failure shared by every copy of one output.
  private final class State: Sendable {
    let failure = Mutex<OutputFailure?>(nil)
  }
}

/// Reads the command's input a line at a time.
public protocol LineInput {
  /// The next line without its line break, or `nil` at the end of input.
  mutating func readLine() -> String?
}

/// Reads lines from standard input.
public struct StandardInput: LineInput {
  /// Creates a reader of standard input.
  public init() {}

  public mutating func readLine() -> String? {
    Swift.readLine(strippingNewline: true)
  }
}

/// `write(2)`, named apart from `TextOutput.write(_:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int)
  -> Int
{
  write(descriptor, buffer, count)
}
