/// Why a text is not a valid identifier of a fruit, a juice or a request.
public struct IdentifierError: Error, Hashable, Sendable {
  /// The rules an identifier can break.
  public enum Reason: Hashable, Sendable {
    /// The text is empty.
    case empty
    /// The text is longer than `maximum` bytes.
    case tooLong(maximum: Int)
    /// The text holds a character the identifier does not allow, or starts with one it
    /// may not start with.
    case invalidCharacter
  }

  /// The text that was given.
  public let text: String
  /// The rule it breaks.
  public let reason: Reason

  /// Creates an identifier error.
  public init(text: String, reason: Reason) {
    self.text = text
    self.reason = reason
  }
}

// MARK: - CustomStringConvertible

extension IdentifierError: CustomStringConvertible {
  public var description: String {
    switch reason {
    case .empty: "an id must not be empty"
    case .tooLong(let maximum): "an id is at most \(maximum) bytes long"
    case .invalidCharacter: "\"\(text)\" holds a character an id does not allow"
    }
  }
}

/// The rule of fruit and juice ids: lowercase ASCII letters, digits and `-`, starting
/// with a letter, at most `Fruit.maximumIDLength` bytes.
enum CatalogIdentifier {
  /// Checks `text` against the rule.
  ///
  /// - Throws: `IdentifierError` naming the rule the text breaks.
  static func check(_ text: String) throws(IdentifierError) {
    var contiguous = text
    if let reason = contiguous.withUTF8(problem(in:)) {
      throw IdentifierError(text: text, reason: reason)
    }
  }

  /// The rule the UTF-8 bytes of a text break, if any.
  private static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> IdentifierError.Reason? {
    guard !bytes.isEmpty else { return .empty }
    guard bytes.count <= Fruit.maximumIDLength else {
      return .tooLong(maximum: Fruit.maximumIDLength)
    }
    var first = true
    for byte in bytes {
      let isLetter = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
      let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
      let allowed = first ? isLetter : isLetter || isDigit || byte == UInt8(ascii: "-")
      guard allowed else { return .invalidCharacter }
      first = false
    }
    return nil
  }
}
