/// An argument for a format specifier in a catalog value.
///
/// `%@` takes a ``string(_:)``; `%lld`, `%ld`, `%d`, `%i` take an ``int(_:)``, and `%u`, `%llu`
/// a non-negative one. Literals work directly:
///
/// ```swift
/// localizer.string("order.shortage", "kiwi", 1)  // "1 more kiwi"
/// ```
public enum LocalizedArgument: Sendable, Hashable {
  /// Text, for `%@`.
  case string(String)
  /// A whole number, for `%lld` and the other integer specifiers.
  case int(Int)
}

// MARK: - ExpressibleByStringLiteral

extension LocalizedArgument: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

// MARK: - ExpressibleByIntegerLiteral

extension LocalizedArgument: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) {
    self = .int(value)
  }
}

// MARK: - CustomStringConvertible

extension LocalizedArgument: CustomStringConvertible {
  public var description: String {
    switch self {
    case .string(let text): text
    case .int(let number): String(number)
    }
  }
}
