/// A JSON value parsed by `JSONParser`, with the place it was written.
///
/// Packs are read with this strict parser rather than `JSONDecoder` so that every
/// problem can name its line, column and JSON path, duplicate keys are caught, and
/// numbers keep their written form until the pack decoder judges them.
struct JSONNode: Sendable {
  /// The value.
  let value: JSONValue
  /// The 1-based line where the value starts.
  let line: Int
  /// The 1-based column (in bytes) where the value starts.
  let column: Int
}

/// The kinds of JSON value.
enum JSONValue: Sendable {
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
  var kindName: String {
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
struct JSONMember: Sendable {
  /// The key.
  let key: String
  /// The value.
  let node: JSONNode
}
