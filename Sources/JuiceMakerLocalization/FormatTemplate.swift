/// A catalog value parsed once into segments, ready to render without parsing again.
///
/// Parsing never fails: anything the formatter cannot render becomes a
/// ``FormatSegment/invalid(specifier:problem:)`` segment, which renders as a visible marker and
/// which validation reports.
struct FormatTemplate: Sendable {
  /// The value exactly as written.
  let text: String
  /// The parse of a value that is not plain text, or `nil` for plain text, which renders as
  /// written. Most values of a large catalog are names: a parse each would be megabytes.
  private let parsed: Parsed?

  /// What parsing found in a value that is not plain text.
  private final class Parsed: Sendable {
    let segments: [FormatSegment]
    let literalByteCount: Int
    let verbatimSegments: [FormatSegment]?
    /// The text a value of literal text alone renders as, such as `100%` for `100%%`.
    let plainText: String?

    init(segments: [FormatSegment], verbatimSegments: [FormatSegment]?) {
      self.segments = segments
      self.verbatimSegments = verbatimSegments
      literalByteCount = segments.reduce(0) { total, segment in
        if case .literal(let literal) = segment { total + literal.utf8.count } else { total }
      }
      if segments.count == 1, case .literal(let literal) = segments[0] {
        plainText = literal
      } else {
        plainText = nil
      }
    }
  }

  /// The segments, in order: one literal for plain text.
  var segments: [FormatSegment] {
    parsed?.segments ?? (text.isEmpty ? [] : [.literal(text)])
  }

  /// The UTF-8 length of the literal text, to reserve capacity when rendering.
  var literalByteCount: Int { parsed?.literalByteCount ?? text.utf8.count }

  /// The whole text when the value has no specifier or particle, such as a name; rendering
  /// returns it as is.
  var plainText: String? { parsed.map(\.plainText) ?? text }

  /// The segments to render when no argument is given, when the value has Korean particle
  /// notations: literal text, `%` signs included, and particles. `nil` when the value is then
  /// shown exactly as written.
  var verbatimSegments: [FormatSegment]? { parsed?.verbatimSegments }

  /// Parses a catalog value.
  ///
  /// - Parameters:
  ///   - text: The value as written in the catalog.
  ///   - substitutions: The substitutions `%#@name@` may refer to; `nil` inside a
  ///     substitution's branches, where `%arg` is allowed and `%#@name@` is not.
  /// - Complexity: O(*n*) for a value of *n* characters.
  init(parsing text: String, substitutions: [String: FormatSubstitution]?) {
    var contiguous = text  // `withUTF8` may need to make the text contiguous, so needs a `var`.
    let (segments, verbatim) = contiguous.withUTF8 { bytes in
      var parser = FormatParser(
        text, bytes: bytes, substitutions: substitutions, readsSpecifiers: true)
      parser.parse()
      guard parser.sawParticle else { return (parser.segments, nil as [FormatSegment]?) }
      guard bytes.contains(UInt8(ascii: "%")) else { return (parser.segments, parser.segments) }
      var verbatim = FormatParser(
        text, bytes: bytes, substitutions: substitutions, readsSpecifiers: false)
      verbatim.parse()
      return (parser.segments, verbatim.segments)
    }
    self.text = text
    // Plain text is the value itself: no segment but one literal that is all of it.
    let isPlain: Bool
    switch segments.first {
    case .literal(let literal) where segments.count == 1:
      isPlain = verbatim == nil && literal.utf8.count == text.utf8.count
    case nil: isPlain = true
    default: isPlain = false
    }
    parsed = isPlain ? nil : Parsed(segments: segments, verbatimSegments: verbatim)
  }

  /// Whether an argument or a substitution's `%arg` is shown with a floating-point
  /// specifier, such as `%.1f`.
  var showsFloatingPoint: Bool {
    (parsed?.segments ?? []).contains { segment in
      switch segment {
      case .argument(_, let format, _): format.conversion.isFloatingPoint
      case .substitution(let definition, _, _):
        definition.format?.conversion.isFloatingPoint == true
      default: false
      }
    }
  }

  /// Whether the value takes arguments: it has a specifier that renders one.
  var takesArguments: Bool {
    (parsed?.segments ?? []).contains { segment in
      switch segment {
      case .argument, .substitution: true
      default: false
      }
    }
  }

  /// The format a substitution's `formatSpecifier` spells, such as `lld`, `@`, or `.1f`.
  ///
  /// - Parameter specifier: The specifier without its `%`.
  /// - Returns: The format, or `nil` when the text is not exactly one specifier that takes its
  ///   value from the substitution's own argument (no `n$`, no `*`).
  static func substitutionFormat(_ specifier: String) -> FormatSpecifier? {
    let template = FormatTemplate(parsing: "%" + specifier, substitutions: [:])
    guard template.segments.count == 1,
      case .argument(1, let format, _) = template.segments[0],
      !specifier.utf8.contains(UInt8(ascii: "$")), !specifier.utf8.contains(UInt8(ascii: "*"))
    else { return nil }
    return format
  }

  /// The problems of the specifiers in the value, each with the specifier as written.
  ///
  /// The branches of a substitution the value refers to are templates of their own.
  var problems: [(specifier: String, problem: SpecifierProblem)] {
    (parsed?.segments ?? []).compactMap { segment in
      if case .invalid(let specifier, let problem) = segment { (specifier, problem) } else { nil }
    }
  }
}

// MARK: - Parsing

/// Splits a catalog value into literal, specifier, and particle segments.
///
/// It works on the value's UTF-8 bytes: every character of the format syntax is ASCII, and a
/// byte of a multi-byte character is never ASCII, so the value is only ever cut at character
/// boundaries. Literal text is sliced out of the value, not rebuilt character by character; a
/// value that is all literal text is kept as the very string the catalog holds.
private struct FormatParser {
  private let text: String
  private let bytes: UnsafeBufferPointer<UInt8>
  private let substitutions: [String: FormatSubstitution]?
  private var index = 0
  private var nextSequentialPosition = 1
  /// Where the literal text not yet emitted starts.
  private var literalStart = 0
  /// Literal text before `literalStart` not yet emitted, when `%%` interrupted it.
  private var pendingLiteral = ""
  /// Whether the literal text not yet emitted holds a `(`, which every Korean particle notation
  /// has: text without one is not searched for them.
  private var literalHasBracket = false
  /// Whether `%` starts a specifier; when not, it is literal text like any other.
  private let readsSpecifiers: Bool
  private(set) var segments: [FormatSegment] = []
  /// Whether a Korean particle notation was found.
  private(set) var sawParticle = false

  /// Prepares to parse a value.
  ///
  /// - Parameters:
  ///   - text: The value.
  ///   - bytes: The value's UTF-8 bytes, valid while the parser is used.
  ///   - substitutions: The substitutions `%#@name@` may refer to, or `nil` inside a
  ///     substitution's branches.
  ///   - readsSpecifiers: Whether `%` starts a specifier, or is literal text.
  init(
    _ text: String, bytes: UnsafeBufferPointer<UInt8>,
    substitutions: [String: FormatSubstitution]?, readsSpecifiers: Bool
  ) {
    self.text = text
    self.bytes = bytes
    self.substitutions = substitutions
    self.readsSpecifiers = readsSpecifiers
  }

  mutating func parse() {
    while index < bytes.count {
      guard readsSpecifiers, bytes[index] == UInt8(ascii: "%") else {
        if bytes[index] == UInt8(ascii: "(") {
          literalHasBracket = true
        }
        index += 1
        continue
      }
      let start = index
      if let segment = parseSpecifier() {
        flushLiteral(upTo: start)
        segments.append(segment)
      } else {
        // `%%`: the literal text goes on with one `%`.
        pendingLiteral += string(literalStart..<start + 1)
      }
      literalStart = index
    }
    flushLiteral(upTo: bytes.count)
  }

  /// Parses the specifier starting at the `%` at `index`, leaving `index` after it.
  ///
  /// - Returns: The segment, or `nil` for `%%`, which stands for a literal `%`.
  private mutating func parseSpecifier() -> FormatSegment? {
    let start = index
    index += 1
    guard index < bytes.count else {
      return .invalid(specifier: "%", problem: .incomplete)
    }
    if bytes[index] == UInt8(ascii: "%") {
      index += 1
      return nil
    }
    if hasPrefix("arg", at: index) {
      index += 3
      return substitutions == nil
        ? .substitutionArgument
        : .invalid(specifier: "%arg", problem: .argumentOutsideSubstitution)
    }

    // An explicit argument number, `N$`. Digits without `$` are a width, read below.
    var position: Int?
    var problem: SpecifierProblem?
    if let (number, end) = digits(at: index), end < bytes.count, bytes[end] == UInt8(ascii: "$") {
      if let number, number >= 1 {
        position = number
      } else {
        problem = .invalidPosition
      }
      index = end + 1
    }

    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "#"),
      bytes[index + 1] == UInt8(ascii: "@")
    {
      return parseSubstitution(from: start, position: position, problem != nil)
    }

    var format = FormatSpecifier(conversion: .object)
    while index < bytes.count, let flag = FormatSpecifier.Flags(byte: bytes[index]) {
      format.flags.insert(flag)
      index += 1
    }
    // Arguments for `*` are numbered in order of appearance: width, precision, then the value.
    var sequentialCount = 0
    format.width = parseAmount(sequentialCount: &sequentialCount, problem: &problem)
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      format.precision =
        parseAmount(sequentialCount: &sequentialCount, problem: &problem) ?? .fixed(0)
    }

    let lengthStart = index
    while index < bytes.count, index - lengthStart < 2, bytes[index].isLengthModifier {
      index += 1
    }
    guard index < bytes.count, bytes[index].isConversionCharacter else {
      return .invalid(specifier: string(start..<index), problem: .incomplete)
    }
    let length = UnsafeBufferPointer(rebasing: bytes[lengthStart..<index])
    let character = bytes[index]
    index += 1
    let specifier = string(start..<index)
    guard let conversion = FormatSpecifier.conversion(length: length, character: character) else {
      return .invalid(specifier: specifier, problem: .unknownConversion)
    }
    if let problem {
      return .invalid(specifier: specifier, problem: problem)
    }
    format.conversion = conversion
    // Sequential `*` amounts take their numbers now that the specifier is known to be valid.
    if sequentialCount > 0 {
      if let width = format.width { format.width = numberingSequential(width) }
      if let precision = format.precision { format.precision = numberingSequential(precision) }
    }
    return .argument(
      position: position ?? takeSequentialPosition(), format: format, specifier: specifier)
  }

  /// Marks an amount taken from the next argument in order; numbered by
  /// ``numberingSequential(_:)`` once the specifier is known to be valid.
  private static let sequentialAmount = FormatSpecifier.Amount.argument(0)

  /// Gives a `*` amount without `m$` its argument number.
  private mutating func numberingSequential(
    _ amount: FormatSpecifier.Amount
  ) -> FormatSpecifier.Amount {
    amount == Self.sequentialAmount ? .argument(takeSequentialPosition()) : amount
  }

  /// Parses a width or precision at `index`: digits, `*`, or `*m$`.
  ///
  /// - Parameters:
  ///   - sequentialCount: Incremented for a `*` that takes the next argument.
  ///   - problem: Set when the amount is too large or its argument number is invalid.
  /// - Returns: The amount, or `nil` when none is written.
  private mutating func parseAmount(
    sequentialCount: inout Int, problem: inout SpecifierProblem?
  ) -> FormatSpecifier.Amount? {
    guard index < bytes.count else { return nil }
    if bytes[index] == UInt8(ascii: "*") {
      index += 1
      if let (number, end) = digits(at: index), end < bytes.count,
        bytes[end] == UInt8(ascii: "$")
      {
        index = end + 1
        guard let number, number >= 1 else {
          problem = problem ?? .invalidPosition
          return nil
        }
        return .argument(number)
      }
      sequentialCount += 1
      return Self.sequentialAmount
    }
    guard let (number, end) = digits(at: index) else { return nil }
    index = end
    guard let number, number <= FormatSpecifier.maximumAmount else {
      problem = problem ?? .widthOrPrecisionTooLarge
      return nil
    }
    return .fixed(number)
  }

  /// The decimal number written at `start`, and where its digits end; the number is `nil` when
  /// it does not fit in `Int`. Returns `nil` when no digit is there.
  private func digits(at start: Int) -> (Int?, end: Int)? {
    var end = start
    var value: Int? = 0
    while end < bytes.count, bytes[end].isASCIIDigit {
      if let current = value {
        let (shifted, overflow1) = current.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = shifted.addingReportingOverflow(Int(bytes[end] - UInt8(ascii: "0")))
        value = overflow1 || overflow2 ? nil : sum
      }
      end += 1
    }
    return end > start ? (value, end) : nil
  }

  /// Parses `#@name@` after `%` (and an optional `N$`), with `index` at the `#`.
  private mutating func parseSubstitution(
    from start: Int, position: Int?, _ positionIsInvalid: Bool
  ) -> FormatSegment {
    index += 1
    guard index < bytes.count, bytes[index] == UInt8(ascii: "@") else {
      return .invalid(specifier: string(start..<index), problem: .incomplete)
    }
    index += 1
    let nameStart = index
    while index < bytes.count, bytes[index].isNameCharacter {
      index += 1
    }
    guard index > nameStart, index < bytes.count, bytes[index] == UInt8(ascii: "@") else {
      return .invalid(specifier: string(start..<index), problem: .incomplete)
    }
    let name = string(nameStart..<index)
    index += 1
    let specifier = string(start..<index)
    // `%#@name@` takes an argument in order like any other specifier, even with an argNum.
    let sequential = takeSequentialPosition()
    guard !positionIsInvalid else {
      return .invalid(specifier: specifier, problem: .invalidPosition)
    }
    guard let substitutions else {
      return .invalid(specifier: specifier, problem: .nestedSubstitution)
    }
    guard let substitution = substitutions[name] else {
      return .invalid(specifier: specifier, problem: .undefinedSubstitution(name: name))
    }
    if let problem = substitution.problem {
      return .invalid(specifier: specifier, problem: problem)
    }
    return .substitution(
      substitution, position: substitution.argumentNumber ?? position ?? sequential,
      specifier: specifier)
  }

  private mutating func takeSequentialPosition() -> Int {
    defer { nextSequentialPosition += 1 }
    return nextSequentialPosition
  }

  private func hasPrefix(_ prefix: StaticString, at position: Int) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard bytes.count - position >= count else { return false }
    return prefix.withUTF8Buffer { prefix in
      bytes[position..<position + count].elementsEqual(prefix)
    }
  }

  /// The value's text in a range of byte offsets that fall on character boundaries.
  private func string(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// Appends the literal text pending before `end`, split around Korean particle notations.
  private mutating func flushLiteral(upTo end: Int) {
    let literal: String
    if pendingLiteral.isEmpty {
      guard literalStart < end else { return }
      literal = literalStart == 0 && end == bytes.count ? text : string(literalStart..<end)
    } else {
      literal = pendingLiteral + string(literalStart..<end)
      pendingLiteral = ""
    }
    if literalHasBracket {
      literalHasBracket = false
      appendSplittingParticles(literal)
    } else {
      segments.append(.literal(literal))
    }
  }

  /// Appends literal text as literal and particle segments.
  private mutating func appendSplittingParticles(_ literal: String) {
    var contiguous = literal
    contiguous.withUTF8 { bytes in
      var chunkStart = 0
      var cursor = 0
      while cursor < bytes.count {
        guard KoreanParticle.mayStartNotation(in: bytes, at: cursor),
          let (particle, length) = KoreanParticle.notation(in: bytes, at: cursor)
        else {
          cursor += 1
          continue
        }
        if chunkStart < cursor {
          segments.append(.literal(Self.string(bytes, chunkStart..<cursor)))
        }
        sawParticle = true
        segments.append(
          .particle(particle, written: Self.string(bytes, cursor..<cursor + length)))
        cursor += length
        chunkStart = cursor
      }
      if chunkStart == 0 {
        segments.append(.literal(literal))
      } else if chunkStart < bytes.count {
        segments.append(.literal(Self.string(bytes, chunkStart..<bytes.count)))
      }
    }
  }

  private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}

extension FormatSpecifier.Flags {
  /// The flag a byte spells, or `nil` when it is not a flag.
  fileprivate init?(byte: UInt8) {
    switch byte {
    case UInt8(ascii: "-"): self = .leftJustify
    case UInt8(ascii: "+"): self = .plusSign
    case UInt8(ascii: " "): self = .spaceSign
    case UInt8(ascii: "0"): self = .zeroPad
    case UInt8(ascii: "#"): self = .alternate
    case UInt8(ascii: "'"): self = .grouping
    default: return nil
    }
  }
}

extension UInt8 {
  fileprivate var isASCIIDigit: Bool {
    UInt8(ascii: "0") <= self && self <= UInt8(ascii: "9")
  }

  fileprivate var isASCIILetter: Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
  }

  /// A length modifier character: `h`, `l`, `q`, `j`, `z`, `t`, or `L`.
  fileprivate var isLengthModifier: Bool {
    switch self {
    case UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "j"),
      UInt8(ascii: "z"), UInt8(ascii: "t"), UInt8(ascii: "L"):
      true
    default:
      false
    }
  }

  /// A character that ends a specifier: an ASCII letter or `@`.
  fileprivate var isConversionCharacter: Bool {
    self == UInt8(ascii: "@") || isASCIILetter
  }

  /// A character allowed in a substitution name.
  fileprivate var isNameCharacter: Bool {
    isASCIIDigit || isASCIILetter
      || self == UInt8(ascii: "_") || self == UInt8(ascii: "-") || self == UInt8(ascii: ".")
  }
}
