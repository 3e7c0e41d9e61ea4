import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A well-behaved HTTP client for one server, over `URLSession`: no cache, no cookie
/// store, no redirects followed silently (the server sends none).
///
/// Requests that must be malformed go through `RawHTTPConnection` instead.
struct HTTPClient: Sendable {
  /// The server's origin, such as `http://127.0.0.1:41234/`.
  let origin: URL
  /// The bearer token sent with every request, if any.
  var token: String?

  private static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.timeoutIntervalForRequest = 30
    return URLSession(configuration: configuration)
  }()

  /// `GET path`.
  ///
  /// - Parameters:
  ///   - path: The path and query, such as `/api/v1/menu?lang=ko`.
  ///   - headers: More header fields.
  func get(_ path: String, headers: [String: String] = [:]) async throws -> ServerResponse {
    try await send("GET", path, headers: headers)
  }

  /// `POST path` with a JSON body and `Content-Type: application/json`.
  func post(
    _ path: String, json: JSONValue, headers: [String: String] = [:]
  ) async throws -> ServerResponse {
    var headers = headers
    if headers.keys.contains(where: { $0.lowercased() == "content-type" }) == false {
      headers["Content-Type"] = "application/json"
    }
    return try await send("POST", path, headers: headers, body: Array(json.description.utf8))
  }

  /// Orders `count` of `juice`, with an idempotency key when given.
  func order(
    _ juice: String, count: Int? = nil, key: String? = nil, headers: [String: String] = [:]
  ) async throws -> ServerResponse {
    var body: [String: JSONValue] = ["juice": .string(juice)]
    if let count { body["count"] = .integer(count) }
    var headers = headers
    if let key { headers["Idempotency-Key"] = key }
    return try await post("/api/v1/orders", json: .object(body), headers: headers)
  }

  /// Sends any request.
  func send(
    _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil
  ) async throws -> ServerResponse {
    let url = try #require(URL(string: path, relativeTo: origin)?.absoluteURL, "\(path)")
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let token {
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
    for (name, value) in headers {
      request.setValue(value, forHTTPHeaderField: name)
    }
    if let body { request.httpBody = Data(body) }
    let (data, response) = try await Self.session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    let fields = http.allHeaderFields.compactMap { name, value -> ServerResponse.Field? in
      guard let name = name as? String, let value = value as? String else { return nil }
      return .init(name: name, value: value)
    }
    return ServerResponse(status: http.statusCode, headers: fields, body: Array(data))
  }
}
