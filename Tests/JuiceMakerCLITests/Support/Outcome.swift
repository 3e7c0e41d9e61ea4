import Foundation
import Testing

/// What one run of `juice-maker` left: its exit status and everything it wrote.
struct Outcome: Sendable, CustomStringConvertible {
  /// The exit status; 128 + the signal's number when a signal ended the process.
  let status: Int32
  /// Everything written to standard output.
  let stdout: String
  /// Everything written to standard error.
  let stderr: String

  /// The lines of standard output, without the line breaks.
  var lines: [String] { Self.lines(stdout) }
  /// The lines of standard error, without the line breaks.
  var errorLines: [String] { Self.lines(stderr) }

  /// Standard output as one JSON object, after checking it is exactly one document on
  /// one line.
  func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    #expect(stdout.hasSuffix("\n"), "\(self)", sourceLocation: sourceLocation)
    #expect(
      lines.count == 1, "one JSON document, on one line: \(self)", sourceLocation: sourceLocation)
    let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    return try #require(object as? [String: Any], "\(self)", sourceLocation: sourceLocation)
  }

  var description: String {
    "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
  }

  private static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

extension Outcome {
  /// The lines of a table after its header row.
  var rows: [String] { Array(lines.dropFirst()) }
}

// MARK: - Reading JSON documents

extension Dictionary where Key == String, Value == Any {
  /// The array of objects under `key`, or an empty array.
  func objects(_ key: String) -> [[String: Any]] {
    self[key] as? [[String: Any]] ?? []
  }

  /// The integer under `key`.
  func int(_ key: String) -> Int? {
    self[key] as? Int
  }

  /// The object under `key`.
  func object(_ key: String) -> [String: Any]? {
    self[key] as? [String: Any]
  }

  /// The string under `key`.
  func string(_ key: String) -> String? {
    self[key] as? String
  }

  /// The boolean under `key`.
  func bool(_ key: String) -> Bool? {
    self[key] as? Bool
  }

  /// The object of integers under `key`, such as an order's `stock`.
  func counts(_ key: String) -> [String: Int] {
    self[key] as? [String: Int] ?? [:]
  }
}
