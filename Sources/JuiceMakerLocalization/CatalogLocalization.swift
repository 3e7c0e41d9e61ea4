/// One key in one language, compiled for rendering.
///
/// A value held in its entry's array rather than an object of its own: a large catalog has
/// tens of thousands, and an object each would be megabytes.
struct CatalogLocalization: Sendable {
  /// The value, plain or varying by plural.
  enum Body: Sendable {
    /// One value for every count.
    case single(CatalogValue)
    /// A value per plural category.
    case plural(PluralForms)
    /// Several values (`stringSet`); the first is rendered.
    case set([CatalogValue])
  }

  /// The value.
  let body: Body
  /// The plural rule of the language.
  let rule: PluralRule
  /// The substitutions the value defines, by name.
  let substitutions: [String: FormatSubstitution]

  /// Compiles a decoded localization, or returns `nil` when it has no value at all.
  ///
  /// A plural variation is preferred over a plain string unit, and a string unit over a string
  /// set; a value that varies by device uses ``StringCatalogFile/Variations/commandLineDevice``.
  ///
  /// - Parameters:
  ///   - localization: The decoded localization.
  ///   - rule: The plural rule of its language.
  init?(_ localization: StringCatalogFile.Localization, rule: PluralRule) {
    var substitutions: [String: FormatSubstitution] = [:]
    if let decoded = localization.substitutions {
      substitutions.reserveCapacity(decoded.count)
      for (name, substitution) in decoded {
        substitutions[name] = FormatSubstitution(name: name, substitution)
      }
    }
    let variations =
      localization.variations?.plural == nil
      ? localization.variations?.chosenDevice?.variations : localization.variations
    if let plural = variations?.plural {
      body = .plural(PluralForms(plural, substitutions: substitutions))
    } else if let unit = localization.stringUnit
      ?? localization.variations?.chosenDevice?.resolvedUnit
    {
      body = .single(CatalogValue(unit, substitutions: substitutions))
    } else if let set = localization.stringSet, !set.values.isEmpty {
      body = .set(
        set.values.map {
          CatalogValue(.init(state: set.state, value: $0), substitutions: substitutions)
        })
    } else {
      return nil
    }
    self.rule = rule
    self.substitutions = substitutions
  }

  /// A source-language value that is the key itself, for a key its file gives no value in its
  /// source language.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - rule: The plural rule of the source language.
  init(sourceText key: String, rule: PluralRule) {
    body = .single(CatalogValue(.init(state: "translated", value: key), substitutions: [:]))
    self.rule = rule
    self.substitutions = [:]
  }

  /// Whether any value takes arguments.
  var takesArguments: Bool {
    !allValues { !$0.template.takesArguments }
  }

  /// Calls `body` with every value, as ``labelledValues`` lists them, until it returns
  /// `false`; the labels are not made.
  ///
  /// - Returns: Whether `body` returned `true` for every value.
  private func allValues(_ body: (CatalogValue) -> Bool) -> Bool {
    let valuesHold =
      switch self.body {
      case .single(let value): body(value)
      case .plural(let forms): forms.allBranches(body)
      case .set(let values): values.allSatisfy(body)
      }
    return valuesHold
      && substitutions.values.allSatisfy { substitution in
        substitution.forms?.allBranches(body) ?? true
      }
  }

  /// The value to render.
  ///
  /// - Parameter count: The count that chooses a plural branch, or `nil` to use `other`.
  /// - Returns: A non-empty value, or `nil` when the language has none for the count.
  func value(for count: PluralOperands?) -> CatalogValue? {
    let value: CatalogValue? =
      switch body {
      case .single(let value): value
      case .plural(let forms): count.map { forms.value(for: $0, rule: rule) } ?? forms[.other]
      case .set(let values): values.first
      }
    guard let value, !value.text.isEmpty else { return nil }
    return value
  }

  /// Every value with a label naming its branch, such as `plural one` or
  /// `substitution cups: other`, for validation.
  var labelledValues: [(label: String?, value: CatalogValue)] {
    var result: [(label: String?, value: CatalogValue)] = []
    switch body {
    case .single(let value):
      result.append((nil, value))
    case .plural(let forms):
      result += forms.branches.map { ("plural \($0.category.rawValue)", $0.value) }
    case .set(let values):
      result += values.enumerated().map { ("value \($0.offset + 1)", $0.element) }
    }
    for name in substitutions.keys.sorted() {
      guard let forms = substitutions[name]?.forms else { continue }
      result += forms.branches.map { ("substitution \(name): \($0.category.rawValue)", $0.value) }
    }
    return result
  }
}
