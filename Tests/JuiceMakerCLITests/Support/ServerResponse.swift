import Foundation
import Testing

/// One HTTP response as the test received it, from `HTTPClient` or a `RawHTTPConnection`.
struct ServerResponse: Sendable, CustomStringConvertible {
  /// The status code.
  let status: Int
  /// The header fields in the order received, names as sent.
  let headers: [Field]
  /// The body, after any chunked transfer coding is removed.
  let body: [UInt8]

  struct Field: Sendable {
    let name: String
    let value: String
  }

  /// The first value of the header field `name`, compared without case.
  func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// Every value of the header field `name`.
  func headerValues(_ name: String) -> [String] {
    headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
  }

  /// The media type of `Content-Type`, lowercased, without parameters.
  var mediaType: String? {
    header("Content-Type").map {
      $0.split(separator: ";", maxSplits: 1).first.map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      } ?? ""
    }
  }

  /// The body as UTF-8 text.
  var text: String { String(decoding: body, as: UTF8.self) }

  /// The body as a JSON document.
  func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    do {
      return try JSONValue(parsing: body)
    } catch {
      Issue.record("the body is not JSON: \(self)", sourceLocation: sourceLocation)
      throw error
    }
  }

  var description: String {
    let head = headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    let shown = body.count > 2000 ? String(decoding: body.prefix(2000), as: UTF8.self) + "…" : text
    return "HTTP \(status)\n\(head)\n\n\(shown)"
  }
}
