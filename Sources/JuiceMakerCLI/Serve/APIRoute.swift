/// One route of the HTTP API, declared once: the router, the `Allow` header, the
/// access check and the OpenAPI document all come from `APIRoute.all`.
struct APIRoute: Sendable {
  /// What the route does; the handler it reaches.
  enum Operation: String, Sendable, CaseIterable {
    case menu, stock, order, editStock, history, events, strings, signIn, signOut
    case openAPI, metrics, health
  }

  /// Who may call the route when the server has a token file.
  enum Access: Sendable {
    /// Anyone: no token.
    case open
    /// Any valid token, whatever its roles.
    case token
    /// A token with this role.
    case role(AccessRole)
  }

  /// The method.
  let method: String
  /// The path; a segment in braces (`{fruit}`) matches any one segment.
  let path: String
  let operation: Operation
  let access: Access
  /// One line for the OpenAPI document.
  let summary: String
  /// The schema of the JSON body, if the route takes one.
  var body: String? = nil
  /// Each documented answer: status, media type and schema (`nil` for no body).
  let responses: [Response]
  /// The query parameters it reads.
  var parameters: [String] = []

  /// One documented answer.
  struct Response: Sendable {
    let status: Int
    let mediaType: String?
    let schema: String?
  }

  /// Whether the route changes the store or the session: it needs a JSON body type and an
  /// allowed origin.
  var isStateChanging: Bool { method == "POST" || method == "DELETE" }

  /// The path's segments.
  var segments: [Substring] { path.split(separator: "/", omittingEmptySubsequences: false) }
}

extension APIRoute {
  private static func json(_ status: Int, _ schema: String) -> Response {
    Response(status: status, mediaType: "application/json", schema: schema)
  }

  private static func problem(_ status: Int) -> Response {
    Response(status: status, mediaType: "application/problem+json", schema: "Problem")
  }

  /// The problems every API route may answer with.
  private static let common = [
    problem(400), problem(401), problem(403), problem(405), problem(503),
  ]

  /// Every route.
  static let all: [APIRoute] = [
    APIRoute(
      method: "GET", path: "/api/v1/menu", operation: .menu, access: .role(.counter),
      summary: "Every juice with its recipe and how many can be made now.",
      responses: [json(200, "Menu")] + common, parameters: ["lang"]),
    APIRoute(
      method: "GET", path: "/api/v1/stock", operation: .stock, access: .role(.counter),
      summary: "Every fruit's level, with the journal sequence they were read at.",
      responses: [json(200, "Stock")] + common, parameters: ["lang"]),
    APIRoute(
      method: "POST", path: "/api/v1/orders", operation: .order, access: .role(.counter),
      summary: "Makes juice, all or nothing, once per Idempotency-Key.", body: "OrderRequest",
      responses: [
        json(201, "Order"), problem(403), problem(404), problem(409), problem(413),
        problem(415), problem(422),
      ] + common, parameters: ["lang"]),
    APIRoute(
      method: "POST", path: "/api/v1/stock/{fruit}", operation: .editStock,
      access: .role(.staff),
      summary: "Adds, removes or sets a fruit's level; a set may compare-and-set.",
      body: "StockEditRequest",
      responses: [
        json(200, "StockEdit"), problem(403), problem(404), problem(409), problem(413),
        problem(415), problem(422),
      ] + common, parameters: ["lang"]),
    APIRoute(
      method: "GET", path: "/api/v1/history", operation: .history, access: .role(.staff),
      summary: "The journal, newest first.",
      responses: [json(200, "History"), problem(403)] + common,
      parameters: ["limit", "since", "shop", "lang"]),
    APIRoute(
      method: "GET", path: "/api/v1/events", operation: .events, access: .role(.counter),
      summary: "Server-Sent Events: one per journal entry, resumable with Last-Event-ID.",
      responses: [Response(status: 200, mediaType: "text/event-stream", schema: nil)] + common,
      parameters: ["after", "lang"]),
    APIRoute(
      method: "GET", path: "/api/v1/strings", operation: .strings, access: .open,
      summary: "The kiosk page's words in one language.",
      responses: [json(200, "Strings")] + common, parameters: ["lang"]),
    APIRoute(
      method: "POST", path: "/api/v1/session", operation: .signIn, access: .open,
      summary: "Exchanges a token for a session cookie.", body: "SignInRequest",
      responses: [
        Response(status: 204, mediaType: nil, schema: nil), problem(403), problem(413),
        problem(415), problem(422),
      ] + common),
    APIRoute(
      method: "DELETE", path: "/api/v1/session", operation: .signOut, access: .open,
      summary: "Ends the session.",
      responses: [Response(status: 204, mediaType: nil, schema: nil), problem(403)] + common),
    APIRoute(
      method: "GET", path: "/api/v1/openapi.json", operation: .openAPI, access: .open,
      summary: "This document.", responses: [json(200, "OpenAPI")] + common),
    APIRoute(
      method: "GET", path: "/metrics", operation: .metrics, access: .token,
      summary: "Prometheus text exposition.",
      responses: [Response(status: 200, mediaType: "text/plain", schema: nil)] + common),
    APIRoute(
      method: "GET", path: "/healthz", operation: .health, access: .open,
      summary: "200 when the store answers, else 503 saying why.",
      responses: [json(200, "Health"), problem(503)]),
  ]

  /// The routes with no parameter, by path.
  private static let fixedPaths: [String: [APIRoute]] = Dictionary(
    grouping: all.filter { !$0.path.contains("{") }, by: \.path)

  /// The route a request's path and method reach, with the path's parameter.
  enum Match {
    case route(APIRoute, parameter: Substring?)
    /// The path is a route's, but not the method.
    case wrongMethod(allowed: [String])
    case none
  }

  /// Every route's segments, split once: the router runs for every request.
  private static let patterns = all.map(\.segments)

  /// Finds the route of a path and method; `HEAD` reaches `GET` routes.
  static func match(method: String, path: String) -> Match {
    // Most requests name a route with no parameter: found by the whole path.
    if let routes = fixedPaths[path] {
      if let route = routes.first(where: {
        $0.method == method || (method == "HEAD" && $0.method == "GET")
      }) {
        return .route(route, parameter: nil)
      }
      return .wrongMethod(
        allowed: routes.flatMap { $0.method == "GET" ? ["GET", "HEAD"] : [$0.method] })
    }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    var allowed: [String] = []
    for (route, pattern) in zip(all, patterns) {
      guard pattern.count == segments.count else { continue }
      var parameter: Substring?
      var matches = true
      for (expected, actual) in zip(pattern, segments) {
        if expected.first == "{" {
          guard !actual.isEmpty else {
            matches = false
            break
          }
          parameter = actual
        } else if expected != actual {
          matches = false
          break
        }
      }
      guard matches else { continue }
      if route.method == method || (method == "HEAD" && route.method == "GET") {
        return .route(route, parameter: parameter)
      }
      allowed.append(route.method)
      if route.method == "GET" { allowed.append("HEAD") }
    }
    return allowed.isEmpty ? .none : .wrongMethod(allowed: allowed)
  }
}
