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
    let conversion: FormatConversion
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
    let estimate = template.literalByteCount + 16 * arguments.count
    if estimate > 15 {  // Shorter strings are stored inline, without allocating.
      output.reserveCapacity(estimate)
    }
    render(template, into: &output, substitution: nil)
    return output
  }

  private mutating func render(
    _ template: FormatTemplate, into output: inout String, substitution: SubstitutionArgument?
  ) {
    for segment in template.segments {
      switch segment {
      case .literal(let text):
        output += text
      case .argument(let position, let conversion, let specifier):
        guard let argument = argument(at: position, specifier: specifier, into: &output) else {
          continue
        }
        append(argument, as: conversion, position: position, specifier: specifier, into: &output)
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
          substitution.argument, as: substitution.conversion, position: substitution.position,
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
    guard let conversion = definition.conversion else {
      let problem = SpecifierProblem.invalidSubstitutionFormat(definition.formatSpecifier)
      return appendMarker(
        specifier, .malformedSpecifier(specifier: specifier, problem: problem), into: &output)
    }
    guard let forms = definition.forms else {
      return append(
        argument, as: conversion, position: position, specifier: specifier, into: &output)
    }
    guard case .int(let count) = argument else {
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
      argument: argument, position: position, conversion: conversion, specifier: specifier)
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
    _ argument: LocalizedArgument, as conversion: FormatConversion, position: Int,
    specifier: String, into output: inout String
  ) {
    switch (conversion, argument) {
    case (.object, .string(let text)):
      output += text
    case (.signed, .int(let number)):
      output += String(number)
    case (.unsigned, .int(let number)) where number >= 0:
      output += String(number)
    default:
      appendMarker(
        specifier,
        .mismatchedArgument(specifier: specifier, position: position, argument: argument),
        into: &output)
    }
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
