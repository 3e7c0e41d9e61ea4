internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the daemon's callbacks reach: the handler and the count of requests in flight.
final class ServerCore: Sendable {
  let handler: @Sendable (HTTPRequest) -> HTTPReply
  let maximumBodySize: Int
  /// Requests received and not yet completed, event streams included.
  let active = Atomic<Int>(0)
  /// The threads handlers run on, when they may block; `nil` to run them on the daemon's.
  let workers: WorkerPool?

  init(
    handler: @escaping @Sendable (HTTPRequest) -> HTTPReply, maximumBodySize: Int,
    handlerThreads: Int
  ) {
    self.handler = handler
    self.maximumBodySize = maximumBodySize
    workers = handlerThreads > 0 ? WorkerPool(threads: handlerThreads) : nil
  }
}

/// One request while the daemon reads its body; it lives from the first call of the
/// access handler to the daemon's completion notice.
final class PendingRequest {
  var body: [UInt8] = []
  var tooLarge = false
  /// Whether a response was queued.
  var answered = false
  /// When the header section was read.
  let received = ContinuousClock.now
  /// The reply a worker thread made, while the connection waits suspended.
  let reply = ReplyBox()
}

/// A reply handed from a worker thread to the daemon's.
final class ReplyBox: Sendable {
  private let value = Mutex<HTTPReply?>(nil)

  func put(_ reply: HTTPReply) {
    value.withLock { $0 = reply }
  }

  func take() -> HTTPReply? {
    value.withLock { value in
      defer { value = nil }
      return value
    }
  }
}

/// The daemon's access handler: called first when the header section is read, then
/// with each piece of the body, then once more with none.
let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, url, method, _, uploadData, uploadSize, requestContext in
  guard let context, let connection, let requestContext, let uploadSize else { return .NO }
  let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
  guard let pointer = requestContext.pointee else {
    let pending = PendingRequest()
    core.active.add(1, ordering: .relaxed)
    requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
    if let length = lookup(connection, .HEADER_KIND, "Content-Length"),
      let size = Int(length), size > core.maximumBodySize
    {
      pending.tooLarge = true
    }
    return .YES
  }
  let pending = Unmanaged<PendingRequest>.fromOpaque(pointer).takeUnretainedValue()
  if uploadSize.pointee > 0 {
    if !pending.tooLarge, let uploadData {
      let count = uploadSize.pointee
      if pending.body.count + count > core.maximumBodySize {
        pending.tooLarge = true
        pending.body = []
      } else {
        uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
          pending.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
      }
    }
    uploadSize.pointee = 0
    return .YES
  }
  if let reply = pending.reply.take() { return queue(reply, on: connection) }
  guard !pending.answered else { return .YES }
  pending.answered = true
  let request = HTTPRequest(
    method: method.map { String(cString: $0) } ?? "GET",
    path: url.map { String(cString: $0) } ?? "/",
    query: values(connection, .GET_ARGUMENT_KIND).map { (name: $0.name, value: $0.value) },
    headers: headers(connection),
    body: pending.body, bodyTooLarge: pending.tooLarge,
    isSecure: juice_mhd_is_tls(connection) != 0,
    received: pending.received)
  pending.body = []
  guard let workers = core.workers else { return queue(core.handler(request), on: connection) }
  // A handler that may block runs on a worker while the connection is suspended, so the
  // daemon's thread goes on serving its other connections; once the reply is made the
  // connection is resumed, and the daemon calls this handler again to queue it.
  let box = pending.reply
  let suspended = UInt(bitPattern: connection)
  MHD_suspend_connection(connection)
  workers.run {
    box.put(core.handler(request))
    if let connection = OpaquePointer(bitPattern: suspended) {
      MHD_resume_connection(connection)
    }
  }
  return .YES
}

private func queue(_ reply: HTTPReply, on connection: OpaquePointer) -> MHD_Result {
  switch reply {
  case .response(let response): queue(response, on: connection)
  case .stream(let head, let stream): queue(head, stream, on: connection)
  }
}

/// The daemon's notice that a request is over: its response was sent, or its
/// connection closed.
let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
  if let context {
    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().active.subtract(
      1, ordering: .relaxed)
  }
  guard let requestContext, let pointer = requestContext.pointee else { return }
  Unmanaged<PendingRequest>.fromOpaque(pointer).release()
  requestContext.pointee = nil
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
  let created = response.body.withUnsafeBytes { body in
    MHD_create_response_from_buffer(
      body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
  }
  guard let created else { return .NO }
  defer { MHD_destroy_response(created) }
  for header in response.headers {
    _ = MHD_add_response_header(created, header.name, header.value)
  }
  return MHD_queue_response(connection, UInt32(response.status), created)
}

private func queue(_ head: HTTPResponse, _ stream: EventStream, on connection: OpaquePointer)
  -> MHD_Result
{
  let context = Unmanaged.passRetained(stream).toOpaque()
  guard
    let created = MHD_create_response_from_callback(
      UInt64.max, 2048, readStream, context, freeStream)
  else {
    Unmanaged<EventStream>.fromOpaque(context).release()
    return .NO
  }
  defer { MHD_destroy_response(created) }
  for header in head.headers {
    _ = MHD_add_response_header(created, header.name, header.value)
  }
  // A stream is idle by nature: no timeout ends it.
  _ = juice_mhd_set_timeout(connection, 0)
  stream.attach(to: connection)
  return MHD_queue_response(connection, UInt32(head.status), created)
}

private let readStream: MHD_ContentReaderCallback = { context, _, buffer, size in
  guard let context, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
  let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
  return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size))
}

private let freeStream: MHD_ContentReaderFreeCallback = { context in
  guard let context else { return }
  let stream = Unmanaged<EventStream>.fromOpaque(context).takeRetainedValue()
  stream.close()
}

// MARK: - Reading the request

private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String)
  -> String?
{
  MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
}

private final class Collected {
  var values: [(name: String, value: String)] = []
}

/// The request's header fields, each name made lower case as its `String` is made.
private func headers(_ connection: OpaquePointer) -> [HTTPHeader] {
  var headers: [HTTPHeader] = []
  headers.reserveCapacity(8)
  withUnsafeMutablePointer(to: &headers) { headers in
    _ = MHD_get_connection_values(
      connection, .HEADER_KIND,
      { context, _, key, value in
        guard let context, let key else { return .YES }
        let name = UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self)
        let length = strlen(key)
        let bytes = UnsafeBufferPointer(start: name, count: length)
        let lowered =
          bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
          ? String(unsafeUninitializedCapacity: length) { buffer in
            for (index, byte) in bytes.enumerated() {
              buffer[index] =
                byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return length
          }
          : String(decoding: bytes, as: UTF8.self)
        context.assumingMemoryBound(to: [HTTPHeader].self).pointee.append(
          HTTPHeader(lowered, value.map { String(cString: $0) } ?? ""))
        return .YES
      }, headers)
  }
  return headers
}

private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(
  name: String, value: String
)] {
  let collected = Collected()
  withExtendedLifetime(collected) {
    _ = MHD_get_connection_values(
      connection, kind,
      { context, _, key, value in
        guard let context, let key else { return .YES }
        let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
        collected.values.append(
          (String(cString: key), value.map { String(cString: $0) } ?? ""))
        return .YES
      }, Unmanaged.passUnretained(collected).toOpaque())
  }
  return collected.values
}
