/// Renders parsed catalog values with arguments, never crashing.
///
/// Foundation's `String(format:)` is not used: it crashes on `%#@name@` and misreads skipped
/// positional arguments on Linux. Anything this renderer cannot render becomes a visible marker,
/// `⟨` + the specifier + `?⟩`, and one ``LocalizationWarning``.
struct MessageRenderer {
  /// The argument of the substitution whose branch is being rendered, for `%arg`.
  private struct SubstitutionArgument {
    let argument: LocalizedArgument
    let position: Int
    let format: FormatSpecifier
    let specifier: String
  }

  let key: String
  let language: String
  let rule: PluralRule
  let arguments: [LocalizedArgument]
  private(set) var warnings: [LocalizationWarning] = []

  init(key: String, language: String, rule: PluralRule, arguments: [LocalizedArgument]) {
    self.key = key
    self.language = language
    self.rule = rule
    self.arguments = arguments
  }

  /// Renders a value into a new string.
  ///
  /// - Parameter template: The parsed value.
  /// - Returns: The text.
  /// - Complexity: O(*n*) in the length of the output.
  mutating func render(_ template: FormatTemplate) -> String {
    if let text = template.plainText {
      return text
    }
    var output = String()
    let estimate = arguments.reduce(template.literalByteCount) { $0 + $1.estimatedByteCount }
    if estimate > 15 {  // Shorter strings are stored inline, without allocating.
      output.reserveCapacity(estimate)
    }
    render(template, into: &output, substitution: nil)
    return output
  }

  /// Renders segments that hold only literal text and particles, such as
  /// ``FormatTemplate/verbatimSegments``.
  ///
  /// - Parameter segments: The segments.
  /// - Returns: The text.
  mutating func render(verbatim segments: [FormatSegment]) -> String {
    var output = String()
    render(segments, into: &output, substitution: nil)
    return output
  }

  private mutating func render(
    _ template: FormatTemplate, into output: inout String, substitution: SubstitutionArgument?
  ) {
    render(template.segments, into: &output, substitution: substitution)
  }

  private mutating func render(
    _ segments: [FormatSegment], into output: inout String, substitution: SubstitutionArgument?
  ) {
    for segment in segments {
      switch segment {
      case .literal(let text):
        output += text
      case .argument(let position, let format, let specifier):
        guard let argument = argument(at: position, specifier: specifier, into: &output) else {
          continue
        }
        append(argument, as: format, position: position, specifier: specifier, into: &output)
      case .substitution(let definition, let position, let specifier):
        renderSubstitution(definition, position: position, specifier: specifier, into: &output)
      case .substitutionArgument:
        guard let substitution else {
          appendMarker(
            "%arg", .malformedSpecifier(specifier: "%arg", problem: .argumentOutsideSubstitution),
            into: &output)
          continue
        }
        append(
          substitution.argument, as: substitution.format, position: substitution.position,
          specifier: substitution.specifier, into: &output)
      case .particle(let particle, let written):
        output += particle.form(after: output) ?? written
      case .invalid(let specifier, let problem):
        appendMarker(
          specifier, .malformedSpecifier(specifier: specifier, problem: problem), into: &output)
      }
    }
  }

  private mutating func renderSubstitution(
    _ definition: FormatSubstitution, position: Int, specifier: String, into output: inout String
  ) {
    guard let argument = argument(at: position, specifier: specifier, into: &output) else {
      return
    }
    guard let format = definition.format else {
      let problem = SpecifierProblem.invalidSubstitutionFormat(definition.formatSpecifier)
      return appendMarker(
        specifier, .malformedSpecifier(specifier: specifier, problem: problem), into: &output)
    }
    guard let forms = definition.forms else {
      return append(
        argument, as: format, position: position, specifier: specifier, into: &output)
    }
    guard let count = argument.pluralOperand else {
      return appendMarker(
        specifier,
        .mismatchedArgument(specifier: specifier, position: position, argument: argument),
        into: &output)
    }
    guard let branch = forms.value(for: count, rule: rule) else {
      return appendMarker(
        specifier,
        .missingPluralBranch(specifier: specifier, category: rule.category(for: count)),
        into: &output)
    }
    let context = SubstitutionArgument(
      argument: argument, position: position, format: format, specifier: specifier)
    render(branch.template, into: &output, substitution: context)
  }

  /// The argument at a 1-based position, or `nil` after appending a marker when it is missing.
  private mutating func argument(
    at position: Int, specifier: String, into output: inout String
  ) -> LocalizedArgument? {
    guard position >= 1, position <= arguments.count else {
      appendMarker(
        specifier, .missingArgument(specifier: specifier, position: position), into: &output)
      return nil
    }
    return arguments[position - 1]
  }

  private mutating func append(
    _ argument: LocalizedArgument, as format: FormatSpecifier, position: Int,
    specifier: String, into output: inout String
  ) {
    if format.isBare {
      // The specifiers catalogs use most, without the general path's padding logic.
      switch (format.conversion, argument) {
      case (.object, .string(let text)):
        output += text
        return
      case (.signed, .int(let number)), (.object, .int(let number)):
        output += String(number)
        return
      default:
        break
      }
    }
    var width: Int?
    var precision: Int?
    var leftJustify = format.flags.contains(.leftJustify)
    switch format.width {
    case .fixed(let amount)?:
      width = amount
    case .argument(let amountPosition)?:
      guard let amount = amount(at: amountPosition, specifier: specifier, into: &output) else {
        return
      }
      if amount < 0 { leftJustify = true }
      width = amount.magnitude <= FormatSpecifier.maximumAmount ? Int(amount.magnitude) : nil
      guard width != nil else {
        return appendMarker(
          specifier,
          .mismatchedArgument(
            specifier: specifier, position: amountPosition, argument: .int(amount)),
          into: &output)
      }
    case nil:
      break
    }
    switch format.precision {
    case .fixed(let amount)?:
      precision = amount
    case .argument(let amountPosition)?:
      guard let amount = amount(at: amountPosition, specifier: specifier, into: &output) else {
        return
      }
      guard amount <= FormatSpecifier.maximumAmount else {
        return appendMarker(
          specifier,
          .mismatchedArgument(
            specifier: specifier, position: amountPosition, argument: .int(amount)),
          into: &output)
      }
      // A negative precision counts as none, as in C.
      precision = amount < 0 ? nil : amount
    case nil:
      break
    }
    let language = language
    guard
      let text = ArgumentFormatter.format(
        argument, as: format, width: width, precision: precision, leftJustify: leftJustify,
        separators: { ArgumentFormatter.Separators(language: language) })
    else {
      return appendMarker(
        specifier,
        .mismatchedArgument(specifier: specifier, position: position, argument: argument),
        into: &output)
    }
    output += text
  }

  /// The whole number a `*` width or precision takes, or `nil` after appending a marker when
  /// the argument is missing or not a whole number.
  private mutating func amount(
    at position: Int, specifier: String, into output: inout String
  ) -> Int? {
    guard let argument = argument(at: position, specifier: specifier, into: &output) else {
      return nil
    }
    guard case .int(let amount) = argument else {
      appendMarker(
        specifier,
        .mismatchedArgument(specifier: specifier, position: position, argument: argument),
        into: &output)
      return nil
    }
    return amount
  }

  private mutating func appendMarker(
    _ specifier: String, _ problem: LocalizationWarning.Problem, into output: inout String
  ) {
    output += "⟨"
    output += specifier
    output += "?⟩"
    warnings.append(LocalizationWarning(key: key, language: language, problem: problem))
  }
}

extension LocalizedArgument {
  /// About how many UTF-8 bytes the argument renders as, to reserve room for a message:
  /// a text's own length, a whole number's digits and sign. A short message is then held
  /// inline rather than in storage reserved for the longest number.
  fileprivate var estimatedByteCount: Int {
    switch self {
    case .string(let text): text.utf8.count
    case .int(let number):
      (number < 0 ? 1 : 0) + digitCount(number.magnitude)
    case .double: 24
    }
  }

  /// The decimal digits of a whole number.
  private func digitCount(_ number: UInt) -> Int {
    var (digits, rest) = (1, number)
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    return digits
  }
}
