/// A catalog value parsed once into segments, ready to render without parsing again.
///
/// Parsing never fails: anything the formatter cannot render becomes a
/// ``FormatSegment/invalid(specifier:problem:)`` segment, which renders as a visible marker and
/// which validation reports.
struct FormatTemplate: Sendable {
  /// The segments, in order.
  let segments: [FormatSegment]
  /// The UTF-8 length of the literal text, to reserve capacity when rendering.
  let literalByteCount: Int
  /// The whole text when the value has no specifier or particle, such as a name; rendering
  /// returns it as is.
  let plainText: String?

  /// Parses a catalog value.
  ///
  /// - Parameters:
  ///   - text: The value as written in the catalog.
  ///   - substitutions: The substitutions `%#@name@` may refer to; `nil` inside a
  ///     substitution's branches, where `%arg` is allowed and `%#@name@` is not.
  /// - Complexity: O(*n*) for a value of *n* characters.
  init(parsing text: String, substitutions: [String: FormatSubstitution]?) {
    var parser = FormatParser(text, substitutions: substitutions)
    parser.parse()
    segments = parser.segments
    switch parser.segments.first {
    case .literal(let text) where parser.segments.count == 1: plainText = text
    case nil: plainText = ""
    default: plainText = nil
    }
    literalByteCount = parser.segments.reduce(0) { total, segment in
      if case .literal(let literal) = segment { total + literal.utf8.count } else { total }
    }
  }

  /// The problems of the specifiers in the value, each with the specifier as written.
  ///
  /// The branches of a substitution the value refers to are templates of their own.
  var problems: [(specifier: String, problem: SpecifierProblem)] {
    segments.compactMap { segment in
      if case .invalid(let specifier, let problem) = segment { (specifier, problem) } else { nil }
    }
  }
}

// MARK: - Parsing

/// Splits a catalog value into literal, specifier, and particle segments.
private struct FormatParser {
  private let scalars: [Unicode.Scalar]
  private let substitutions: [String: FormatSubstitution]?
  private var index = 0
  private var nextSequentialPosition = 1
  private var literal = String.UnicodeScalarView()
  private(set) var segments: [FormatSegment] = []

  init(_ text: String, substitutions: [String: FormatSubstitution]?) {
    self.scalars = Array(text.unicodeScalars)
    self.substitutions = substitutions
  }

  mutating func parse() {
    while index < scalars.count {
      if scalars[index] == "%" {
        parseSpecifier()
      } else {
        literal.append(scalars[index])
        index += 1
      }
    }
    flushLiteral()
  }

  /// Parses the specifier starting at the `%` at `index`.
  private mutating func parseSpecifier() {
    let start = index
    index += 1
    guard index < scalars.count else {
      return emit(.invalid(specifier: "%", problem: .incomplete))
    }
    if scalars[index] == "%" {
      literal.append("%")
      index += 1
      return
    }
    if hasPrefix("arg", at: index) {
      index += 3
      return emit(
        substitutions == nil
          ? .substitutionArgument
          : .invalid(specifier: "%arg", problem: .argumentOutsideSubstitution))
    }

    // An explicit argument number, `N$`. Digits without `$` would be a width: unsupported.
    var position: Int?
    var positionIsInvalid = false
    let digitsStart = index
    while index < scalars.count, scalars[index].isASCIIDigit {
      index += 1
    }
    if index > digitsStart {
      guard index < scalars.count, scalars[index] == "$" else {
        consumeConversionCharacter()
        return emit(.invalid(specifier: text(from: start), problem: .unknownConversion))
      }
      let digits = String(String.UnicodeScalarView(scalars[digitsStart..<index]))
      if let number = Int(digits), number >= 1 {
        position = number
      } else {
        positionIsInvalid = true
      }
      index += 1
    }

    if index < scalars.count, scalars[index] == "#" {
      return parseSubstitution(from: start, position: position, positionIsInvalid)
    }

    let lengthStart = index
    while index < scalars.count, index - lengthStart < 2,
      "hlqjzt".unicodeScalars.contains(scalars[index])
    {
      index += 1
    }
    let length = String(String.UnicodeScalarView(scalars[lengthStart..<index]))
    guard index < scalars.count, scalars[index].isConversionCharacter else {
      return emit(.invalid(specifier: text(from: start), problem: .incomplete))
    }
    let character = scalars[index]
    index += 1
    let specifier = text(from: start)
    guard let conversion = FormatConversion(length: length, character: character) else {
      return emit(.invalid(specifier: specifier, problem: .unknownConversion))
    }
    guard !positionIsInvalid else {
      return emit(.invalid(specifier: specifier, problem: .invalidPosition))
    }
    emit(
      .argument(
        position: position ?? takeSequentialPosition(), conversion: conversion,
        specifier: specifier))
  }

  /// Parses `#@name@` after `%` (and an optional `N$`), with `index` at the `#`.
  private mutating func parseSubstitution(
    from start: Int, position: Int?, _ positionIsInvalid: Bool
  ) {
    index += 1
    guard index < scalars.count, scalars[index] == "@" else {
      return emit(.invalid(specifier: text(from: start), problem: .incomplete))
    }
    index += 1
    let nameStart = index
    while index < scalars.count, scalars[index].isNameCharacter {
      index += 1
    }
    guard index > nameStart, index < scalars.count, scalars[index] == "@" else {
      return emit(.invalid(specifier: text(from: start), problem: .incomplete))
    }
    let name = String(String.UnicodeScalarView(scalars[nameStart..<index]))
    index += 1
    let specifier = text(from: start)
    // `%#@name@` takes an argument in order like any other specifier, even with an argNum.
    let sequential = takeSequentialPosition()
    guard !positionIsInvalid else {
      return emit(.invalid(specifier: specifier, problem: .invalidPosition))
    }
    guard let substitutions else {
      return emit(.invalid(specifier: specifier, problem: .nestedSubstitution))
    }
    guard let substitution = substitutions[name] else {
      return emit(.invalid(specifier: specifier, problem: .undefinedSubstitution(name: name)))
    }
    if let problem = substitution.problem {
      return emit(.invalid(specifier: specifier, problem: problem))
    }
    emit(
      .substitution(
        substitution, position: substitution.argumentNumber ?? position ?? sequential,
        specifier: specifier))
  }

  private mutating func takeSequentialPosition() -> Int {
    defer { nextSequentialPosition += 1 }
    return nextSequentialPosition
  }

  /// Consumes a letter that would end an unsupported specifier such as `%5d`.
  private mutating func consumeConversionCharacter() {
    if index < scalars.count, scalars[index].isConversionCharacter {
      index += 1
    }
  }

  private func hasPrefix(_ prefix: String, at position: Int) -> Bool {
    var cursor = position
    for scalar in prefix.unicodeScalars {
      guard cursor < scalars.count, scalars[cursor] == scalar else { return false }
      cursor += 1
    }
    return true
  }

  private func text(from start: Int) -> String {
    String(String.UnicodeScalarView(scalars[start..<index]))
  }

  private mutating func emit(_ segment: FormatSegment) {
    flushLiteral()
    segments.append(segment)
  }

  /// Appends the pending literal text, split around Korean particle notations.
  private mutating func flushLiteral() {
    guard !literal.isEmpty else { return }
    let text = Array(literal)
    literal = String.UnicodeScalarView()
    var chunkStart = 0
    var cursor = 0
    while cursor < text.count {
      guard let (particle, length) = KoreanParticle.notation(in: text, at: cursor) else {
        cursor += 1
        continue
      }
      if chunkStart < cursor {
        segments.append(.literal(String(String.UnicodeScalarView(text[chunkStart..<cursor]))))
      }
      let written = String(String.UnicodeScalarView(text[cursor..<cursor + length]))
      segments.append(.particle(particle, written: written))
      cursor += length
      chunkStart = cursor
    }
    if chunkStart < text.count {
      segments.append(.literal(String(String.UnicodeScalarView(text[chunkStart...]))))
    }
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIIDigit: Bool {
    ("0"..."9").contains(self)
  }

  /// A character that ends a specifier: an ASCII letter or `@`.
  fileprivate var isConversionCharacter: Bool {
    self == "@" || ("a"..."z").contains(self) || ("A"..."Z").contains(self)
  }

  /// A character allowed in a substitution name.
  fileprivate var isNameCharacter: Bool {
    isASCIIDigit || ("a"..."z").contains(self) || ("A"..."Z").contains(self)
      || self == "_" || self == "-" || self == "."
  }
}
