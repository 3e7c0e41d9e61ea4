/// One HTTP request as the server received it, with its whole body.
public struct HTTPRequest: Sendable {
  /// The method, as sent: `GET`, `POST`, ….
  public let method: String
  /// The path, still percent-encoded, without the query: `/api/v1/stock/kiwi`.
  public let path: String
  /// The query's parameters in order, each name and value still percent-encoded.
  public let query: [(name: String, value: String)]
  /// The header fields in order, names in lower case.
  public let headers: [HTTPHeader]
  /// The body; empty when there is none, or when it was larger than the server takes
  /// (`bodyTooLarge`).
  public let body: [UInt8]
  /// Whether the body was larger than `HTTPServer.Configuration.maximumBodySize`; it was
  /// not read.
  public let bodyTooLarge: Bool
  /// Whether the request came over TLS.
  public let isSecure: Bool
  /// When the server read the request's header section, before its body.
  public let received: ContinuousClock.Instant

  /// Creates a request, as the server and the tests build one.
  public init(
    method: String, path: String, query: [(name: String, value: String)] = [],
    headers: [HTTPHeader] = [], body: [UInt8] = [], bodyTooLarge: Bool = false,
    isSecure: Bool = false,
    received: ContinuousClock.Instant = .now
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.bodyTooLarge = bodyTooLarge
    self.isSecure = isSecure
    self.received = received
  }

  /// The value of the first header field named `name` (in lower case), if any.
  public func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }
}

/// One header field.
public struct HTTPHeader: Sendable, Hashable {
  /// The name; the server gives request header names in lower case.
  public let name: String
  /// The value.
  public let value: String

  /// Creates a header field.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
