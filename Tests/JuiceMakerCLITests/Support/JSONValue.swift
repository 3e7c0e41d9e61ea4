import Foundation

/// A JSON document as the server sent it, keeping integers apart from other numbers and
/// booleans apart from both, which `JSONSerialization`'s `NSNumber` does not.
enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses one JSON document.
  init(parsing bytes: some Collection<UInt8>) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
  }

  /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
  subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The element at `index` of an array; `nil` outside it or for a value that is not an array.
  subscript(index: Int) -> JSONValue? {
    if case .array(let elements) = self, elements.indices.contains(index) {
      return elements[index]
    }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var int: Int? {
    if case .integer(let value) = self { return value }
    return nil
  }

  var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  var object: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The JSON type's name as JSON Schema spells it: `integer` for whole numbers.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer: "integer"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

// MARK: - Decodable

extension JSONValue: Decodable {
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}

// MARK: - CustomStringConvertible

extension JSONValue: CustomStringConvertible {
  /// The value as compact JSON, members in key order.
  var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .integer(let value): return String(value)
    case .number(let value): return String(value)
    case .string(let value): return Self.quoted(value)
    case .array(let elements):
      return "[" + elements.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      let pairs = members.sorted { $0.key < $1.key }.map {
        Self.quoted($0.key) + ":" + $0.value.description
      }
      return "{" + pairs.joined(separator: ",") + "}"
    }
  }

  /// A string as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByNilLiteral
{
  init(stringLiteral value: String) { self = .string(value) }
  init(integerLiteral value: Int) { self = .integer(value) }
  init(booleanLiteral value: Bool) { self = .bool(value) }
  init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  init(nilLiteral: ()) { self = .null }
  init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
