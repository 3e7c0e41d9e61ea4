internal import CMicroHTTPD
import Synchronization

/// The body of a response written over time, such as a Server-Sent Events stream.
///
/// A handler returns one in `HTTPReply.stream`, keeps it, and calls `send(_:)` from any
/// thread; the server writes what was sent as the client reads it. While nothing is
/// waiting to be written, the connection is suspended: an idle stream holds no thread
/// and costs only its connection's buffer.
public final class EventStream: Sendable {
  private struct State {
    var pending: [UInt8] = []
    var offset = 0
    /// Whether the stream ends once `pending` is written.
    var finishing = false
    /// Whether the connection is gone: nothing more is written.
    var closed = false
    /// Whether the connection is suspended, waiting for `send(_:)`.
    var suspended = false
    /// The connection, once the server has queued the response.
    var connection: UInt = 0
  }

  private let state = Mutex(State())
  private let onClose: @Sendable () -> Void

  /// Creates a stream.
  ///
  /// - Parameter onClose: Called once, on a server thread, when the connection is gone:
  ///   the client left, the stream finished, or the server stopped.
  public init(onClose: @escaping @Sendable () -> Void = {}) {
    self.onClose = onClose
  }

  /// Queues bytes to write.
  ///
  /// - Returns: `false` when the stream is closed or finishing; nothing is queued then.
  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    state.withLock { state in
      guard !state.closed, !state.finishing else { return false }
      state.pending.append(contentsOf: bytes)
      Self.resume(&state)
      return true
    }
  }

  /// Writes `bytes`, then ends the stream.
  public func finish(with bytes: [UInt8] = []) {
    state.withLock { state in
      guard !state.closed, !state.finishing else { return }
      state.pending.append(contentsOf: bytes)
      state.finishing = true
      Self.resume(&state)
    }
  }

  /// Whether the connection is gone.
  public var isClosed: Bool {
    state.withLock { $0.closed }
  }

  /// How many bytes wait to be written.
  public var pendingCount: Int {
    state.withLock { $0.pending.count - $0.offset }
  }

  private static func resume(_ state: inout State) {
    guard state.suspended, let connection = OpaquePointer(bitPattern: state.connection) else {
      return
    }
    state.suspended = false
    MHD_resume_connection(connection)
  }

  // MARK: - The server's side

  /// Binds the stream to the connection its response was queued on.
  func attach(to connection: OpaquePointer) {
    state.withLock { $0.connection = UInt(bitPattern: connection) }
  }

  /// Copies what waits into `buffer`.
  ///
  /// - Returns: The bytes copied; 0 after suspending the connection until `send(_:)`;
  ///   `MHD_CONTENT_READER_END_OF_STREAM` once finished.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    state.withLock { state in
      let waiting = state.pending.count - state.offset
      if waiting > 0 {
        let count = min(waiting, buffer.count)
        state.pending.withUnsafeBytes { bytes in
          buffer.copyMemory(
            from: UnsafeRawBufferPointer(rebasing: bytes[state.offset..<state.offset + count]))
        }
        state.offset += count
        if state.offset == state.pending.count {
          // An idle stream keeps no buffer.
          state.pending = []
          state.offset = 0
        }
        return count
      }
      if state.finishing || state.closed { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
      guard let connection = OpaquePointer(bitPattern: state.connection) else { return 0 }
      // Suspended under the lock, so `send` resumes only a connection already suspended.
      state.suspended = true
      MHD_suspend_connection(connection)
      return 0
    }
  }

  /// Notes that the connection is gone.
  func close() {
    let first = state.withLock { state in
      defer { state.closed = true }
      state.pending = []
      state.offset = 0
      state.connection = 0
      state.suspended = false
      return !state.closed
    }
    if first { onClose() }
  }
}
