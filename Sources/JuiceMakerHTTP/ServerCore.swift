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

  init(handler: @escaping @Sendable (HTTPRequest) -> HTTPReply, maximumBodySize: Int) {
    self.handler = handler
    self.maximumBodySize = maximumBodySize
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
  guard !pending.answered else { return .YES }
  pending.answered = true
  let request = HTTPRequest(
    method: method.map { String(cString: $0) } ?? "GET",
    path: url.map { String(cString: $0) } ?? "/",
    query: values(connection, .GET_ARGUMENT_KIND).map { (name: $0.name, value: $0.value) },
    headers: values(connection, .HEADER_KIND).map {
      HTTPHeader($0.name.lowercased(), $0.value)
    },
    body: pending.body, bodyTooLarge: pending.tooLarge,
    clientAddress: clientAddress(connection), isSecure: juice_mhd_is_tls(connection) != 0,
    received: pending.received)
  pending.body = []
  switch core.handler(request) {
  case .response(let response):
    return queue(response, on: connection)
  case .stream(let head, let stream):
    return queue(head, stream, on: connection)
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

private func clientAddress(_ connection: OpaquePointer) -> String {
  guard let address = juice_mhd_client_address(connection) else { return "" }
  var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
  switch Int32(address.pointee.sa_family) {
  case AF_INET:
    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
      var raw = address.pointee.sin_addr
      _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
    }
  case AF_INET6:
    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
      var raw = address.pointee.sin6_addr
      _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
    }
  default:
    return ""
  }
  return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
