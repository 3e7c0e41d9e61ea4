/// An argument for a format specifier in a catalog value.
///
/// `%@` and `%s` take a ``string(_:)`` (`%@` shows a number too); `%d`, `%i`, `%lld`, … take an
/// ``int(_:)``; `%u`, `%x`, `%X`, `%o` a non-negative one; `%c` one that is a Unicode code point;
/// and `%f`, `%e`, `%g`, `%a` and their uppercase forms take a ``double(_:)``. A `*` width or
/// precision takes an ``int(_:)``. Literals work directly:
///
/// ```swift
/// localizer.string("order.shortage", "kiwi", 1)  // "1 more kiwi"
/// localizer.string("weight", 1.5)                 // "1.50 kg" for "%.2f kg"
/// ```
public enum LocalizedArgument: Sendable, Hashable {
  /// Text, for `%@`.
  case string(String)
  /// A whole number, for `%lld` and the other integer specifiers.
  case int(Int)
  /// A floating-point number, for `%f`, `%e`, `%g`, `%a` and their uppercase forms.
  case double(Double)
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

// MARK: - ExpressibleByFloatLiteral

extension LocalizedArgument: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}

// MARK: - CustomStringConvertible

extension LocalizedArgument: CustomStringConvertible {
  public var description: String {
    switch self {
    case .string(let text): text
    case .int(let number): String(number)
    case .double(let number): number.description
    }
  }
}
