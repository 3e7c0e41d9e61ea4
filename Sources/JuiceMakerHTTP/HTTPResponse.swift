/// A complete response: a status, header fields and a body.
public struct HTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// The header fields; `Content-Length` and `Date` are added by the server.
  public var headers: [HTTPHeader]
  /// The body.
  public var body: [UInt8]

  /// Creates a response.
  public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the first header field named `name`, compared without case.
  public func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name.lowercased() == name }?.value
  }
}

/// What a handler answers a request with.
public enum HTTPReply: Sendable {
  /// A complete response.
  case response(HTTPResponse)
  /// A response whose body is written over time by `stream` (Server-Sent Events); its
  /// `body` is ignored and its length is not known in advance.
  case stream(HTTPResponse, EventStream)
}
