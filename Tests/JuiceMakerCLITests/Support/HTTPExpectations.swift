import Foundation
import Testing

/// Checks the header fields every API response carries: `X-Content-Type-Options: nosniff`
/// and `Cache-Control: no-store`.
func expectAPIHeaders(
  _ response: ServerResponse, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    response.header("X-Content-Type-Options")?.lowercased() == "nosniff", "\(response)",
    sourceLocation: sourceLocation)
  #expect(
    response.header("Cache-Control")?.lowercased().contains("no-store") == true, "\(response)",
    sourceLocation: sourceLocation)
}

/// Checks a JSON response: its status, `application/json`, the API's header fields.
///
/// - Returns: The body.
@discardableResult
func expectJSON(
  _ response: ServerResponse, status: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONValue {
  #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
  #expect(response.mediaType == "application/json", "\(response)", sourceLocation: sourceLocation)
  expectAPIHeaders(response, sourceLocation: sourceLocation)
  return try response.json(sourceLocation: sourceLocation)
}

/// Checks an RFC 9457 problem: its status, `application/problem+json`, the API's header
/// fields, and the members `type`, `title`, `status`, `code` and `detail`.
///
/// - Returns: The problem document.
@discardableResult
func expectProblem(
  _ response: ServerResponse, status: Int, code: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONValue {
  #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
  #expect(
    response.mediaType == "application/problem+json", "\(response)",
    sourceLocation: sourceLocation)
  expectAPIHeaders(response, sourceLocation: sourceLocation)
  let problem = try response.json(sourceLocation: sourceLocation)
  #expect(
    problem["type"] == .string("urn:juice-maker:problem:\(code)"), "\(response)",
    sourceLocation: sourceLocation)
  #expect(problem["code"] == .string(code), "\(response)", sourceLocation: sourceLocation)
  #expect(problem["status"] == .integer(status), "\(response)", sourceLocation: sourceLocation)
  #expect(
    problem["title"]?.string?.isEmpty == false, "\(response)", sourceLocation: sourceLocation)
  #expect(
    problem["detail"]?.string?.isEmpty == false, "\(response)", sourceLocation: sourceLocation)
  return problem
}

/// Whether `text` has a Hangul syllable: a Korean message rather than an English one.
func isKorean(_ text: String?) -> Bool {
  text?.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } ?? false
}

/// The value with every `name` member removed, after checking each is a non-empty string.
///
/// Names are localized words that agree with their count ("1 banana", "6 bananas"), which
/// api.md leaves to the catalog; tests compare the ids and numbers around them.
func withoutNames(
  _ value: JSONValue?, sourceLocation: SourceLocation = #_sourceLocation
) -> JSONValue? {
  switch value {
  case .object(let members)?:
    if let name = members["name"] {
      #expect(name.string?.isEmpty == false, "name \(name)", sourceLocation: sourceLocation)
    }
    return .object(
      members.filter { $0.key != "name" }.mapValues {
        withoutNames($0, sourceLocation: sourceLocation) ?? .null
      })
  case .array(let elements)?:
    return .array(elements.map { withoutNames($0, sourceLocation: sourceLocation) ?? .null })
  default:
    return value
  }
}
