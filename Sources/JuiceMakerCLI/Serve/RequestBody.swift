import JuiceMakerKit

/// A request's JSON object, read member by member; a member no route takes is refused,
/// never ignored.
struct RequestBody {
  private var members: [String: JSONValue] = [:]

  /// Parses a body.
  ///
  /// - Throws: `APIError.malformedJSON` when it is not JSON, `.invalidBody` when it is
  ///   not an object.
  init(_ bytes: [UInt8]) throws(APIError) {
    let node: JSONNode
    do {
      node = try JSONParser.parse(bytes)
    } catch {
      throw .malformedJSON(
        reason: "\(error.reason) (line \(error.line), column \(error.column))")
    }
    guard case .object(let list) = node.value else {
      throw .invalidBody(field: "$", problem: .notObject)
    }
    for member in list { members[member.key] = member.node.value }
  }

  /// Whether the body has the member.
  func has(_ name: String) -> Bool { members[name] != nil }

  /// Takes a string member.
  mutating func string(_ name: String) throws(APIError) -> String? {
    guard let value = members.removeValue(forKey: name) else { return nil }
    guard case .string(let text) = value else {
      throw .invalidBody(field: name, problem: .notString)
    }
    return text
  }

  /// Takes a whole number member, judged by the command line's rule for counts.
  mutating func number(_ name: String, _ rule: Quantity.Rule) throws(APIError) -> Int? {
    guard let value = members.removeValue(forKey: name) else { return nil }
    guard case .number(let text) = value else {
      throw .invalidBody(field: name, problem: .notNumber)
    }
    do {
      return try Quantity.parse(text, for: name, rule)
    } catch {
      throw .command(error)
    }
  }

  /// Refuses any member not taken.
  func finish() throws(APIError) {
    if let name = members.keys.sorted().first {
      throw .invalidBody(field: name, problem: .unknown)
    }
  }
}
