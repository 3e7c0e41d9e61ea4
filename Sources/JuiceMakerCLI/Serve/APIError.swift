import JuiceMakerKit

/// Why the HTTP API refused a request: a command's error, which the API shares with the
/// command line, or one that only HTTP has.
///
/// Each case knows its status; the answer is an RFC 9457 problem document whose `code`
/// is the command line's JSON error code where the error is a command's
/// (`CLIError.code`), and whose `detail` is the command line's message in the
/// request's language.
enum APIError: Error, Sendable {
  /// A command's error: an unknown juice, a shortage, a bad count, a store that fails.
  case command(CLIError)
  /// The body is not JSON.
  case malformedJSON(reason: String)
  /// The body is JSON, but a member is missing, of the wrong type, or not one the
  /// route takes.
  case invalidBody(field: String, problem: BodyProblem)
  /// A state-changing request without `Content-Type: application/json`.
  case unsupportedMediaType(String)
  /// The body is larger than the server reads.
  case bodyTooLarge(limit: Int)
  /// No route has this path.
  case notFound(path: String)
  /// The route does not take this method.
  case methodNotAllowed(method: String, allowed: [String])
  /// No valid token or session.
  case unauthorized
  /// The token lacks the role the route needs.
  case forbidden(role: AccessRole)
  /// A browser request from an origin the server does not allow.
  case originNotAllowed(String)
  /// The server is stopping.
  case shuttingDown
  /// A request for a host name the server does not answer to without a token file.
  case hostNotAllowed(String)

  /// What is wrong with a member of a body.
  enum BodyProblem: String, Sendable {
    /// It is needed and missing.
    case missing
    /// It is not a string.
    case notString
    /// It is not a number.
    case notNumber
    /// The route does not take it.
    case unknown
    /// The body is not an object.
    case notObject
    /// It may not come with the other members given.
    case conflicting
  }

  /// The HTTP status.
  var status: Int {
    switch self {
    case .command(let error): error.httpStatus
    case .malformedJSON: 400
    case .invalidBody: 422
    case .unsupportedMediaType: 415
    case .bodyTooLarge: 413
    case .notFound: 404
    case .methodNotAllowed: 405
    case .unauthorized: 401
    case .forbidden, .originNotAllowed, .hostNotAllowed: 403
    case .shuttingDown: 503
    }
  }

  /// The stable code of the problem.
  var code: String {
    switch self {
    case .command(let error): error.code
    case .malformedJSON: "malformedJSON"
    case .invalidBody: "invalidBody"
    case .unsupportedMediaType: "unsupportedMediaType"
    case .bodyTooLarge: "bodyTooLarge"
    case .notFound: "notFound"
    case .methodNotAllowed: "methodNotAllowed"
    case .unauthorized: "unauthorized"
    case .forbidden: "forbidden"
    case .originNotAllowed: "originNotAllowed"
    case .shuttingDown: "shuttingDown"
    case .hostNotAllowed: "hostNotAllowed"
    }
  }

  /// The detail in the request's language.
  func detail(_ texts: Texts) -> String {
    func s(_ text: String) -> LocalizedArgument { .string(texts.shown(text)) }
    switch self {
    case .command(let error): return error.message(texts)
    case .malformedJSON(let reason): return texts.string("http.malformedJSON", s(reason))
    case .invalidBody(let field, let problem):
      return texts.string("http.invalidBody." + problem.rawValue, s(field))
    case .unsupportedMediaType(let type):
      return texts.string("http.unsupportedMediaType", s(type.isEmpty ? "-" : type))
    case .bodyTooLarge(let limit): return texts.string("http.bodyTooLarge", .int(limit))
    case .notFound(let path): return texts.string("http.notFound", s(path))
    case .methodNotAllowed(let method, let allowed):
      return texts.string(
        "http.methodNotAllowed", s(method), s(allowed.joined(separator: ", ")))
    case .unauthorized: return texts.string("http.unauthorized")
    case .forbidden(let role): return texts.string("http.forbidden", s(role.rawValue))
    case .originNotAllowed(let origin): return texts.string("http.originNotAllowed", s(origin))
    case .shuttingDown: return texts.string("http.shuttingDown")
    case .hostNotAllowed(let host): return texts.string("http.hostNotAllowed", s(host))
    }
  }

  /// The problem document: `type`, `title`, `status`, `code`, `detail`, and what the
  /// case carries (`shortages`, `fruit`, `expected`, `actual`, `key`, `field`).
  func document(_ texts: Texts) -> [UInt8] {
    var json = JSONWriter()
    json.object { json in
      json.member("type", "urn:juice-maker:problem:" + code)
      json.member("title", HTTPStatus.reason(status))
      json.member("status", status)
      json.member("code", code)
      json.member("detail", detail(texts))
      switch self {
      case .command(.outOfStock(let shortages)):
        APIDocuments.shortages(shortages, texts, into: &json)
      case .command(.notEnoughStock(let shortage)):
        APIDocuments.shortages([shortage], texts, into: &json)
      case .command(.stockChanged(let fruit, let expected, let actual)):
        json.member("fruit", fruit.rawValue)
        json.member("expected", expected)
        json.member("actual", actual)
      case .command(.requestIDReused(let id, _)):
        json.member("key", id.rawValue)
      case .command(.unknownJuice(let name)):
        json.member("juice", name)
      case .command(.unknownFruit(let name)):
        json.member("fruit", name)
      case .command(.ambiguousName(let name, let candidates)):
        json.member("name", name)
        json.key("candidates")
        json.array { json in candidates.forEach { json.string($0) } }
      case .invalidBody(let field, _):
        json.member("field", field)
      default:
        break
      }
    }
    return json.bytes
  }
}

extension CLIError {
  /// The HTTP status of the error, beside its exit code: one table, two outputs.
  ///
  /// A shortage or a stale level is `409 Conflict`, an unknown juice or fruit `404`, a
  /// value the request may not hold (a count, a reused request id, an ambiguous name)
  /// `422`, a malformed parameter `400`, and a store that fails `503`.
  var httpStatus: Int {
    switch self {
    case .outOfStock, .notEnoughStock, .stockChanged: 409
    case .unknownJuice, .unknownFruit: 404
    case .ambiguousName, .requestIDReused, .notWholeNumber, .signedNumber, .tooLarge,
      .notPositive, .negative, .overflow:
      422
    case .store: 503
    default: 400
    }
  }
}

/// The reason phrases of the statuses the API answers with.
enum HTTPStatus {
  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 422: "Unprocessable Content"
    case 503: "Service Unavailable"
    default: "Error"
    }
  }
}
