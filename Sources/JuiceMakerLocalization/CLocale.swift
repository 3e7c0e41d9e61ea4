#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's number formatting in the C locale, whatever locale the process has set.
enum CLocale {
  /// The C locale, made once; `nil` only if the C library cannot make it, and then the
  /// thread's locale is used.
  private nonisolated(unsafe) static let locale: locale_t? = newlocale(
    LC_NUMERIC_MASK, "C", nil)

  /// Formats one floating-point number with one conversion.
  ///
  /// - Parameters:
  ///   - number: The number.
  ///   - conversion: A NUL-terminated conversion that reads exactly one `double`, such as
  ///     `%+.2f`. It must be built by the caller from parsed parts, never taken from input.
  /// - Returns: The text.
  static func format(_ number: Double, conversion: [CChar]) -> String {
    let previous = locale.map { uselocale($0) }
    defer {
      if let previous { uselocale(previous) }
    }
    return withVaList([number]) { arguments in
      let needed = Int(vsnprintf(nil, 0, conversion, arguments))
      guard needed > 0 else { return "" }
      var buffer = [CChar](repeating: 0, count: needed + 1)
      return withVaList([number]) { again in
        _ = vsnprintf(&buffer, buffer.count, conversion, again)
        return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
    }
  }
}
