public import JuiceMakerCatalog
import Synchronization

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

  /// A new random id: a version 4 UUID in lowercase.
  ///
  /// The bits come from a generator seeded once per process from the system's
  /// random source, stepped by an atomic counter, so making an id costs no system
  /// call.
  public static func random() -> RequestID {
    let step = counter.add(1, ordering: .relaxed).newValue
    var generator = SplitMix64(seed: seed &+ step &* 0x9E37_79B9_7F4A_7C15)
    let high = generator.next()
    let low = generator.next()
    // Version 4 and the RFC 4122 variant.
    let bytes = [
      (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000,
      (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000,
    ]
    var text = [UInt8]()
    text.reserveCapacity(36)
    let digits = Array("0123456789abcdef".utf8)
    for (word, value) in bytes.enumerated() {
      for nibble in (0..<16).reversed() {
        let position = word * 16 + (15 - nibble)
        if position == 8 || position == 12 || position == 16 || position == 20 {
          text.append(UInt8(ascii: "-"))
        }
        text.append(digits[Int((value >> (UInt64(nibble) * 4)) & 0xF)])
      }
    }
    return RequestID(trusted: String(decoding: text, as: UTF8.self))
  }

  private static let seed: UInt64 = {
    var system = SystemRandomNumberGenerator()
    return system.next()
  }()
  private static let counter = Atomic<UInt64>(0)
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
