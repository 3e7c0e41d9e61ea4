// The standard library's own normalization, which `FoundationEssentials` does not offer and
// the whole of Foundation offers only through ICU.
@_spi(_Unicode) import Swift

extension StringProtocol {
  /// The text in Unicode normalization form C (canonical composition), as Foundation's
  /// `precomposedStringWithCanonicalMapping` gives it: `e` and a combining acute accent
  /// become `é`, and conjoining Hangul jamo a syllable.
  package var canonicallyComposed: String {
    var scalars = String.UnicodeScalarView()
    for scalar in String(self)._nfc { scalars.append(scalar) }
    return String(scalars)
  }
}
