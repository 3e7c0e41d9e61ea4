#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the command writes text: standard output, standard error, or a buffer in tests.
public protocol TextOutput: Sendable {
  /// Writes text as it is; the caller adds line breaks.
  func write(_ text: String)
}

/// Writes to a file descriptor with `write(2)`, retrying short writes.
public struct FileDescriptorOutput: TextOutput {
  private let descriptor: Int32

  /// Standard output.
  public static let standardOutput = FileDescriptorOutput(descriptor: 1)
  /// Standard error.
  public static let standardError = FileDescriptorOutput(descriptor: 2)

  /// Creates an output that writes to a descriptor it does not own.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  public func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { systemWrite(descriptor, $0 + offset, buffer.count - offset) } ?? 0
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
    bytes.removeAll()
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
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int)
  -> Int
{
  write(descriptor, buffer, count)
}
