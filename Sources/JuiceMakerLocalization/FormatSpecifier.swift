/// One printf-style conversion, parsed once: `%lld`, `%-8.2f`, `%'d`, `%2$*1$x`, `%@`.
///
/// The syntax is C's and Foundation's: `%` [`n$`] [flags] [width] [`.` precision] [length]
/// conversion, with flags `-` `+` space `0` `#` `'`, a width or precision written as digits,
/// `*` (the next argument) or `*m$` (argument *m*), the length modifiers `h` `hh` `l` `ll` `q`
/// `z` `t` `j` `L`, and the conversions `d` `i` `u` `x` `X` `o` `c` `s` `@` `f` `F` `e` `E` `g`
/// `G` `a` `A`. A width or precision above ``maximumAmount`` is refused, so that a catalog
/// value cannot make the renderer allocate without bound.
struct FormatSpecifier: Sendable, Hashable {
  /// What the specifier converts, and so which argument it takes.
  enum Conversion: Sendable, Hashable {
    /// `%@`: text, or a number shown as it is written.
    case object
    /// `%s`: text.
    case text
    /// `%c`: a whole number shown as the Unicode character it is the code point of.
    case character
    /// `%d`, `%i`: a whole number.
    case signed
    /// `%u`: a whole number that is not negative.
    case unsigned
    /// `%o`: a whole number that is not negative, in octal.
    case octal
    /// `%x`, `%X`: a whole number that is not negative, in hexadecimal.
    case hex(uppercase: Bool)
    /// `%f` `%F` `%e` `%E` `%g` `%G` `%a` `%A`: a floating-point number; the conversion letter.
    case floating(UInt8)
  }

  /// The flags written between the `%` (or `n$`) and the width.
  struct Flags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    /// `-`: pad on the right.
    static let leftJustify = Flags(rawValue: 1 << 0)
    /// `+`: write `+` before a number that is not negative.
    static let plusSign = Flags(rawValue: 1 << 1)
    /// space: write a space before a number that is not negative.
    static let spaceSign = Flags(rawValue: 1 << 2)
    /// `0`: pad a number with zeros after its sign.
    static let zeroPad = Flags(rawValue: 1 << 3)
    /// `#`: the alternate form (`0x` before hexadecimal, a decimal point that always shows).
    static let alternate = Flags(rawValue: 1 << 4)
    /// `'`: group the digits of whole parts with the language's separator.
    static let grouping = Flags(rawValue: 1 << 5)
  }

  /// A width or precision: written in the value or taken from an argument.
  enum Amount: Sendable, Hashable {
    /// Written as digits, such as the `8` of `%8d`.
    case fixed(Int)
    /// `*` or `*m$`: the 1-based argument that holds it.
    case argument(Int)
  }

  /// The largest width or precision accepted.
  static let maximumAmount = 4_096

  var flags: Flags = []
  var width: Amount?
  var precision: Amount?
  var conversion: Conversion

  /// Whether the specifier is bare: no flag, width, or precision. Bare `%@` and `%lld` render
  /// without any padding logic.
  var isBare: Bool { flags.isEmpty && width == nil && precision == nil }

  /// The conversion of a length modifier and conversion character, or `nil` when the pair is
  /// not supported.
  ///
  /// Integers take any length modifier; floating point takes none, `l`, or `L`; `%c` and `%s`
  /// take none or `l`; `%@` takes none.
  ///
  /// - Parameters:
  ///   - length: The UTF-8 bytes of the length modifier, such as `ll`, or none.
  ///   - character: The conversion character, such as `d` or `@`.
  static func conversion(length: some Collection<UInt8>, character: UInt8) -> Conversion? {
    guard let modifier = LengthModifier(length) else { return nil }
    switch character {
    case UInt8(ascii: "@"):
      return modifier == .none ? .object : nil
    case UInt8(ascii: "s"), UInt8(ascii: "c"):
      guard modifier == .none || modifier == .long else { return nil }
      return character == UInt8(ascii: "s") ? .text : .character
    case UInt8(ascii: "d"), UInt8(ascii: "i"):
      return .signed
    case UInt8(ascii: "u"):
      return .unsigned
    case UInt8(ascii: "o"):
      return .octal
    case UInt8(ascii: "x"), UInt8(ascii: "X"):
      return .hex(uppercase: character == UInt8(ascii: "X"))
    case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"),
      UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
      guard modifier == .none || modifier == .long || modifier == .longDouble else { return nil }
      return .floating(character)
    default:
      return nil
    }
  }

  /// The length modifiers, which only choose the type the C library would read: the renderer
  /// takes Swift values and never truncates them.
  private enum LengthModifier {
    case none, short, long, longDouble, other

    init?(_ bytes: some Collection<UInt8>) {
      var iterator = bytes.makeIterator()
      guard let first = iterator.next() else {
        self = .none
        return
      }
      guard let second = iterator.next() else {
        switch first {
        case UInt8(ascii: "h"): self = .short
        case UInt8(ascii: "l"): self = .long
        case UInt8(ascii: "L"): self = .longDouble
        case UInt8(ascii: "q"), UInt8(ascii: "z"), UInt8(ascii: "j"), UInt8(ascii: "t"):
          self = .other
        default: return nil
        }
        return
      }
      guard iterator.next() == nil, first == second,
        first == UInt8(ascii: "h") || first == UInt8(ascii: "l")
      else { return nil }
      self = .other
    }
  }
}

extension FormatSpecifier.Conversion {
  /// Whether the conversion shows a floating-point number: `%f`, `%e`, `%g`, `%a` and their
  /// uppercase forms.
  var isFloatingPoint: Bool {
    if case .floating = self { true } else { false }
  }
}
