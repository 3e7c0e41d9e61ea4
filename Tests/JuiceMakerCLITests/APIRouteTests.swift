import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// The HTTP API's routes, declared once: matching, `Allow`, and the OpenAPI document.
struct APIRouteTests {
  @Test func aPathWithAParameterReachesItsRouteWithTheSegment() {
    guard
      case .route(let route, let parameter) = APIRoute.match(
        method: "POST", path: "/api/v1/stock/%ED%82%A4%EC%9C%84")
    else {
      Issue.record("no route")
      return
    }
    #expect(route.operation == .editStock)
    #expect(parameter.map { Query.decodeSegment($0) } == "키위")
  }

  @Test func anotherMethodOnARoutesPathListsTheMethodsItTakes() {
    guard case .wrongMethod(let allowed) = APIRoute.match(method: "DELETE", path: "/api/v1/menu")
    else {
      Issue.record("not a wrong method")
      return
    }
    #expect(allowed == ["GET", "HEAD"])
  }

  @Test(arguments: [
    "/api/v1", "/api/v1/menu/", "/api/v1/stock/", "/api/v2/menu", "/api/v1/stock/a/b",
  ])
  func anUnknownPathMatchesNothing(path: String) {
    guard case .none = APIRoute.match(method: "GET", path: path) else {
      Issue.record("\(path) matched")
      return
    }
  }

  @Test func headReachesGetRoutes() {
    guard case .route(let route, _) = APIRoute.match(method: "HEAD", path: "/healthz") else {
      Issue.record("no route")
      return
    }
    #expect(route.operation == .health)
  }

  @Test func theOpenAPIDocumentDescribesEveryRouteAndEveryAnswer() throws {
    let document = try #require(
      JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
    #expect(document["openapi"] as? String == "3.1.0")
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let schemas = try #require(
      (document["components"] as? [String: Any])?["schemas"] as? [String: Any])
    for route in APIRoute.all {
      let operation = try #require(
        paths[route.path]?[route.method.lowercased()] as? [String: Any], "\(route.path)")
      let responses = try #require(operation["responses"] as? [String: Any])
      for response in route.responses {
        #expect(responses[String(response.status)] != nil, "\(route.path) \(response.status)")
        if let schema = response.schema { #expect(schemas[schema] != nil, "\(schema)") }
      }
      if let body = route.body { #expect(schemas[body] != nil, "\(body)") }
    }
  }

  @Test(arguments: [
    (CLIError.outOfStock([]), 409), (.stockChanged(fruit: "kiwi", expected: 1, actual: 2), 409),
    (.unknownJuice("x"), 404), (.unknownFruit("x"), 404),
    (.notPositive(value: "0", option: "count"), 422), (.invalidRequestID(""), 400),
    (
      .store(
        .unavailable(store: "s", cause: .init(code: "", message: "", purpose: "reading levels"))),
      503
    ),
  ])
  func aCommandsErrorHasOneStatus(error: CLIError, status: Int) {
    #expect(error.httpStatus == status)
    #expect(APIError.command(error).status == status)
  }

  @Test func acceptLanguageIsRankedByWeightThenOrder() {
    #expect(
      LanguageChoice.ranked("en;q=0.5, ko-KR, fr;q=0, ja;q=0.9") == ["ko-KR", "ja", "en"])
    #expect(LanguageChoice.ranked("") == [])
  }

  @Test func aJSONStringIsEscaped() {
    var json = JSONWriter()
    json.object { json in
      json.member("a", "quote \" backslash \\ line\nbell\u{7} 딸기")
      json.key("b")
      json.array { json in
        json.int(-1)
        json.bool(true)
        json.null()
      }
    }
    let text = String(decoding: json.bytes, as: UTF8.self)
    #expect(text == #"{"a":"quote \" backslash \\ line\nbell\u0007 딸기","b":[-1,true,null]}"#)
    #expect((try? JSONSerialization.jsonObject(with: Data(json.bytes))) != nil)
  }
}

/// Which `Host` values name the server by address, which a page of another site cannot
/// send.
struct HostAddressTests {
  @Test(arguments: [
    ("127.0.0.1:8080", true), ("127.0.0.1", true), ("[::1]:8080", true), ("localhost:1", true),
    ("LocalHost", true), ("192.168.0.7:80", true), ("evil.example:8080", false),
    ("127.0.0.1.evil.example", false), ("1.2.3:80", false), ("1.2.3.4.5", false),
    ("1234.1.1.1", false), ("", false), ("localhost.evil", false),
  ])
  func anAddressOrLocalhostIsTheServersOwnName(host: String, isAddress: Bool) {
    #expect(ShopAPI.isAddress(host) == isAddress)
  }
}
