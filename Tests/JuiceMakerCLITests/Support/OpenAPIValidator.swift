import Foundation

/// Checks JSON values against the schemas of an OpenAPI 3.1 document, for the subset of
/// JSON Schema the server's document uses: `type` (a name or an array of names, `null`
/// among them for nullable), `properties`, `required`, `additionalProperties` (`false` or
/// a schema), `items`, `enum`, `const`, `$ref` to `#/components/schemas/…`, `oneOf`,
/// `anyOf`, `allOf`, and OpenAPI 3.0's `nullable`. Keywords it does not know are ignored,
/// except that `unknownKeywords` lists them, so a test can tell the subset grew.
struct OpenAPIValidator {
  /// The OpenAPI document.
  let document: JSONValue

  /// The keywords this validator understands; `format`, `description` and the like only
  /// annotate.
  static let knownKeywords: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "$ref",
    "oneOf", "anyOf", "allOf", "nullable", "format", "description", "title", "example",
    "examples", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
    "default", "pattern", "readOnly", "writeOnly", "deprecated", "exclusiveMinimum",
    "exclusiveMaximum", "$schema", "$id",
  ]

  /// The schema of the response to `method path` with `status` and `mediaType`, from the
  /// operation's `responses` (the exact status, else `4XX`/`5XX`, else `default`).
  ///
  /// - Parameter path: The document's path template, such as `/api/v1/stock/{fruit}`.
  func responseSchema(
    method: String, path: String, status: Int, mediaType: String
  ) throws -> JSONValue {
    guard let operation = document["paths"]?[path]?[method.lowercased()] else {
      throw Failure("no operation \(method) \(path) in the document")
    }
    guard let responses = operation["responses"] else {
      throw Failure("\(method) \(path) documents no responses")
    }
    let keys = [String(status), "\(status / 100)XX", "\(status / 100)xx", "default"]
    guard let response = keys.lazy.compactMap({ responses[$0] }).first else {
      throw Failure("\(method) \(path) does not document the status \(status)")
    }
    let resolved = try resolve(response)
    guard let content = resolved["content"]?.object else {
      throw Failure("\(method) \(path) \(status) documents no content")
    }
    guard let media = content[mediaType] else {
      throw Failure(
        "\(method) \(path) \(status) does not document \(mediaType), only \(content.keys.sorted())")
    }
    guard let schema = media["schema"] else {
      throw Failure("\(method) \(path) \(status) \(mediaType) has no schema")
    }
    return schema
  }

  /// Follows a `$ref` to `#/components/…`, as many times as it takes.
  func resolve(_ value: JSONValue) throws -> JSONValue {
    var value = value
    var seen = 0
    while let reference = value["$ref"]?.string {
      guard reference.hasPrefix("#/"), seen < 32 else {
        throw Failure("unsupported reference \(reference)")
      }
      var target = document
      for part in reference.dropFirst(2).split(separator: "/") {
        let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(
          of: "~0", with: "~")
        guard let next = target[key] else { throw Failure("dangling reference \(reference)") }
        target = next
      }
      value = target
      seen += 1
    }
    return value
  }

  /// Every way `value` breaks `schema`, each with the JSON pointer of the place.
  func errors(_ value: JSONValue, against schema: JSONValue, at pointer: String = "") -> [String] {
    if case .bool(let accepts) = schema {
      return accepts ? [] : ["\(pointer): no value is allowed here"]
    }
    guard let keywords = schema.object else { return ["\(pointer): the schema is not an object"] }
    var errors: [String] = []
    if let reference = keywords["$ref"] {
      do {
        errors += self.errors(value, against: try resolve(["$ref": reference]), at: pointer)
      } catch {
        errors.append("\(pointer): \(error)")
      }
    }
    if let type = keywords["type"] {
      var names = type.array?.compactMap(\.string) ?? [type.string].compactMap { $0 }
      if keywords["nullable"]?.bool == true { names.append("null") }
      let actual = value.typeName
      let matches = names.contains { name in
        name == actual || (name == "number" && actual == "integer")
      }
      if !matches {
        errors.append("\(pointer): \(actual) \(value) is not of type \(names)")
        return errors
      }
    }
    if let choices = keywords["enum"]?.array, !choices.contains(value) {
      errors.append("\(pointer): \(value) is not one of \(choices)")
    }
    if let constant = keywords["const"], constant != value {
      errors.append("\(pointer): \(value) is not \(constant)")
    }
    if let members = value.object {
      let properties = keywords["properties"]?.object ?? [:]
      for name in keywords["required"]?.array?.compactMap(\.string) ?? [] where members[name] == nil
      {
        errors.append("\(pointer): the required member \(name) is missing")
      }
      for (name, member) in members.sorted(by: { $0.key < $1.key }) {
        if let property = properties[name] {
          errors += self.errors(member, against: property, at: pointer + "/" + name)
        } else if let additional = keywords["additionalProperties"] {
          if additional == .bool(false) {
            errors.append("\(pointer): the member \(name) is not documented")
          } else {
            errors += self.errors(member, against: additional, at: pointer + "/" + name)
          }
        }
      }
    }
    if let elements = value.array, let items = keywords["items"] {
      for (index, element) in elements.enumerated() {
        errors += self.errors(element, against: items, at: pointer + "/\(index)")
      }
    }
    if let all = keywords["allOf"]?.array {
      for schema in all {
        errors += self.errors(value, against: schema, at: pointer)
      }
    }
    if let any = keywords["anyOf"]?.array,
      !any.contains(where: { self.errors(value, against: $0, at: pointer).isEmpty })
    {
      errors.append("\(pointer): \(value) matches none of anyOf")
    }
    if let one = keywords["oneOf"]?.array {
      let matching = one.filter { self.errors(value, against: $0, at: pointer).isEmpty }.count
      if matching != 1 {
        errors.append("\(pointer): \(value) matches \(matching) of oneOf, not exactly one")
      }
    }
    return errors
  }

  /// Every keyword used anywhere in the document's schemas that this validator does not
  /// know.
  func unknownKeywords() -> Set<String> {
    var unknown: Set<String> = []
    func visit(_ schema: JSONValue) {
      guard let keywords = schema.object else { return }
      for (key, value) in keywords {
        switch key {
        case "properties":
          value.object?.values.forEach(visit)
        case "items", "additionalProperties":
          visit(value)
        case "oneOf", "anyOf", "allOf":
          value.array?.forEach(visit)
        default:
          if !Self.knownKeywords.contains(key) { unknown.insert(key) }
        }
      }
    }
    document["components"]?["schemas"]?.object?.values.forEach(visit)
    return unknown
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
