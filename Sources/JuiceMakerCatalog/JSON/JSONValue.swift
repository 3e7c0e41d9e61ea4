/// A JSON value parsed by `JSONParser`, with the place it was written.
///
/// Packs are read with this strict parser rather than `JSONDecoder` so that every
/// problem can name its line, column and JSON path, duplicate keys are caught, and
/// numbers keep their written form until the pack decoder judges them.
package struct JSONNode: Sendable {
  /// The value.
  package let value: JSONValue
  /// The 1-based line where the value starts.
  package let line: Int
  /// The 1-based column (in bytes) where the value starts.
  package let column: Int
}

/// The kinds of JSON value.
package enum JSONValue: Sendable {
  /// An object, its members in written order.
  case object([JSONMember])
  /// An array.
  case array([JSONNode])
  /// A string.
  case string(String)
  /// A number as written, such as `-0`, `1.5` or `1e400`.
  case number(String)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// The name of the kind, as problems report it.
  package var kindName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number(let text): "the number \(text)"
    case .bool(let value): "\(value)"
    case .null: "null"
    }
  }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable {
  /// The key.
  package let key: String
  /// The value.
  package let node: JSONNode
}
