import Foundation

/// The idempotency id of one stock operation.
///
/// Every operation carries one, and a storage journals it under a unique constraint:
/// an operation sent again with the same id (after a lost reply, say) is not run
/// twice; the storage returns the outcome journaled the first time.
///
/// An id is 1 to 128 bytes of printable ASCII (`!` through `~`, no spaces). Callers
/// may give their own (`juice-maker order --request-id ID`); otherwise
/// `RequestID.random()` makes a UUID.
public struct RequestID: Hashable, Sendable {
  /// The id's text.
  public let rawValue: String

  /// The longest request id, in bytes.
  public static let maximumLength = 128

  /// Creates a request id from untrusted text, checking the rule.
  ///
  /// - Parameter text: The id.
  /// - Throws: `IdentifierError` when the text is empty, longer than `maximumLength`
  ///   bytes, or holds a byte outside printable ASCII.
  public init(validating text: String) throws(IdentifierError) {
    guard !text.isEmpty else { throw IdentifierError(text: text, reason: .empty) }
    guard text.utf8.count <= Self.maximumLength else {
      throw IdentifierError(text: text, reason: .tooLong(maximum: Self.maximumLength))
    }
    guard text.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
      throw IdentifierError(text: text, reason: .invalidCharacter)
    }
    rawValue = text
  }

  private init(trusted text: String) {
    rawValue = text
  }

  /// A new random id: a UUID in lowercase.
  public static func random() -> RequestID {
    RequestID(trusted: UUID().uuidString.lowercased())
  }
}

// MARK: - ExpressibleByStringLiteral

extension RequestID: ExpressibleByStringLiteral {
  /// Creates an id from a literal in source code.
  ///
  /// - Precondition: The literal follows the rule of `init(validating:)`.
  public init(stringLiteral value: String) {
    do {
      try self.init(validating: value)
    } catch {
      preconditionFailure("invalid request id literal: \(error)")
    }
  }
}

// MARK: - CustomStringConvertible

extension RequestID: CustomStringConvertible {
  public var description: String { rawValue }
}
