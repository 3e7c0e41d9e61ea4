import FoundationEssentials

/// The OpenAPI 3.1 document of `GET /api/v1/openapi.json`, made from `APIRoute.all` and
/// the schemas of the documents `APIDocuments` writes.
enum OpenAPIDocument {
  /// The document, made once.
  static let bytes: [UInt8] = {
    var writer = JSONWriter(capacity: 16_384)
    write(document(), into: &writer)
    return writer.bytes
  }()

  /// Writes a value of the document: its objects' members in the order of their names, so
  /// the document is the same bytes every time.
  private static func write(_ value: Any, into writer: inout JSONWriter) {
    switch value {
    case let object as [String: Any]:
      writer.object { writer in
        for name in object.keys.sorted() {
          writer.key(name)
          if let member = object[name] { write(member, into: &writer) }
        }
      }
    case let array as [Any]:
      writer.array { writer in
        for element in array { write(element, into: &writer) }
      }
    case let text as String: writer.string(text)
    case let flag as Bool: writer.bool(flag)
    case let number as Int: writer.int(number)
    default: writer.null()
    }
  }

  private static func document() -> [String: Any] {
    var paths: [String: [String: Any]] = [:]
    for route in APIRoute.all {
      var operation: [String: Any] = [
        "operationId": route.operation.rawValue,
        "summary": route.summary,
      ]
      var parameters: [[String: Any]] = route.parameters.map { name in
        [
          "name": name, "in": "query", "required": false,
          "schema": name == "limit" || name == "after" ? ["type": "integer"] : ["type": "string"],
        ]
      }
      if route.path.contains("{fruit}") {
        parameters.append([
          "name": "fruit", "in": "path", "required": true, "schema": ["type": "string"],
          "description": "A fruit's id or its name in any language.",
        ])
      }
      if route.operation == .order || route.operation == .editStock {
        parameters.append([
          "name": "Idempotency-Key", "in": "header", "required": false,
          "schema": ["type": "string", "minLength": 1, "maxLength": 128],
        ])
      }
      if route.operation == .events {
        parameters.append([
          "name": "Last-Event-ID", "in": "header", "required": false,
          "schema": ["type": "string"],
        ])
      }
      if !parameters.isEmpty { operation["parameters"] = parameters }
      if let body = route.body {
        operation["requestBody"] = [
          "required": true,
          "content": ["application/json": ["schema": ref(body)]],
        ]
      }
      var responses: [String: Any] = [:]
      for response in route.responses {
        var answer: [String: Any] = ["description": HTTPStatus.reason(response.status)]
        if let mediaType = response.mediaType {
          answer["content"] = [
            mediaType: response.schema.map { ["schema": ref($0)] } ?? ["schema": ["type": "string"]]
          ]
        }
        responses[String(response.status)] = answer
      }
      operation["responses"] = responses
      switch route.access {
      case .open: operation["security"] = [[String: Any]]()
      case .token, .role: operation["security"] = [["bearer": []], ["session": []]]
      }
      paths[route.path, default: [:]][route.method.lowercased()] = operation
    }
    return [
      "openapi": "3.1.0",
      "info": [
        "title": "JuiceMaker", "version": "1",
        "description":
          "The shop over HTTP. With a token file, send `Authorization: Bearer TOKEN` or the session cookie.",
      ],
      "paths": paths,
      "components": [
        "schemas": schemas,
        "securitySchemes": [
          "bearer": ["type": "http", "scheme": "bearer"],
          "session": ["type": "apiKey", "in": "cookie", "name": AccessControl.cookieName],
        ],
      ],
    ]
  }

  private static func ref(_ name: String) -> [String: Any] {
    ["$ref": "#/components/schemas/" + name]
  }

  private static func object(_ properties: [String: Any], required: [String]) -> [String: Any] {
    [
      "type": "object", "properties": properties, "required": required,
      "additionalProperties": false,
    ]
  }

  private static var integer: [String: Any] { ["type": "integer"] }
  private static var string: [String: Any] { ["type": "string"] }
  private static var boolean: [String: Any] { ["type": "boolean"] }

  private static func array(_ items: [String: Any]) -> [String: Any] {
    ["type": "array", "items": items]
  }

  private static var schemas: [String: Any] {
    let shortage = object(
      ["fruit": string, "name": string, "needed": integer, "available": integer],
      required: ["fruit", "name", "needed", "available"])
    let change = object(
      ["fruit": string, "name": string, "before": integer, "after": integer],
      required: ["fruit", "name", "before", "after"])
    return [
      "Menu": object(
        [
          "sequence": integer,
          "juices": array(
            object(
              [
                "id": string, "name": string, "makeable": integer,
                "recipe": array(
                  object(
                    ["fruit": string, "name": string, "count": integer],
                    required: ["fruit", "name", "count"])),
                // The amount is a decimal string, exact; text is as the language writes it.
                "price": object(
                  ["amount": string, "currency": string, "text": string],
                  required: ["amount", "currency", "text"]),
              ], required: ["id", "name", "recipe", "makeable"])),
        ], required: ["sequence", "juices"]),
      "Stock": object(
        [
          "sequence": integer,
          "fruits": array(
            object(
              [
                "id": string, "name": string, "level": integer, "low": boolean,
                "min": integer, "par": integer,
              ], required: ["id", "name", "level", "low"])),
        ], required: ["sequence", "fruits"]),
      "OrderRequest": object(
        ["juice": string, "count": ["type": "integer", "minimum": 1]], required: ["juice"]),
      "Order": object(
        [
          "requestId": string, "sequence": integer, "juice": string, "name": string,
          "count": integer, "message": string,
          "levels": array(
            object(
              ["fruit": string, "name": string, "level": integer],
              required: ["fruit", "name", "level"])),
        ], required: ["requestId", "sequence", "juice", "name", "count", "message", "levels"]),
      "StockEditRequest": [
        "oneOf": [
          object(["add": ["type": "integer", "minimum": 1]], required: ["add"]),
          object(["remove": ["type": "integer", "minimum": 1]], required: ["remove"]),
          object(
            [
              "set": ["type": "integer", "minimum": 0],
              "expected": ["type": "integer", "minimum": 0],
            ], required: ["set"]),
        ]
      ],
      "StockEdit": object(
        [
          "requestId": string, "sequence": integer, "fruit": string, "name": string,
          "before": integer, "after": integer, "message": string,
        ], required: ["requestId", "sequence", "fruit", "name", "before", "after", "message"]),
      "Entry": object(
        [
          "sequence": integer, "requestId": string, "time": string, "shop": string,
          "action": ["type": "string", "enum": ["order", "add", "remove", "set"]],
          "juice": string, "fruit": string, "count": integer, "expected": integer,
          "outcome": ["type": "string", "enum": ["done", "refused", "conflict"]],
          "shortages": array(shortage),
          "conflict": object(
            ["fruit": string, "expected": integer, "actual": integer],
            required: ["fruit", "expected", "actual"]),
          "changes": array(change), "text": string,
        ],
        required: [
          "sequence", "requestId", "time", "shop", "action", "count", "outcome", "changes", "text",
        ]),
      "History": object(["entries": array(ref("Entry"))], required: ["entries"]),
      "Strings": object(
        [
          "language": string, "languages": array(string),
          "strings": ["type": "object", "additionalProperties": string],
        ], required: ["language", "languages", "strings"]),
      "SignInRequest": object(["token": string], required: ["token"]),
      "Health": object(
        [
          "status": ["type": "string", "enum": ["ok"]],
          // The menu served: its store layer's version, and why a changed menu was not
          // taken up.
          "menu": object(["version": integer, "problem": string], required: ["version"]),
        ], required: ["status", "menu"]),
      "OpenAPI": ["type": "object"],
      "Problem": [
        "type": "object",
        "required": ["type", "title", "status", "code", "detail"],
        "properties": [
          "type": string, "title": string, "status": integer, "code": string, "detail": string,
          "shortages": array(shortage), "fruit": string, "juice": string, "expected": integer,
          "actual": integer, "key": string, "field": string, "name": string,
          "candidates": array(string),
        ],
        "additionalProperties": false,
      ],
    ]
  }
}
