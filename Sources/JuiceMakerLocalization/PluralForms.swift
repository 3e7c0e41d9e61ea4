/// The branches of one plural variation, by category.
struct PluralForms: Sendable {
  private var values: [CatalogValue?]
  /// The branch names that are no CLDR category, such as `One` or `fewer`, which are ignored.
  private(set) var unknownNames: [String] = []

  /// Compiles the branches of a decoded plural variation; unknown category names are ignored.
  ///
  /// - Parameters:
  ///   - plural: The decoded branches, by category name.
  ///   - substitutions: The substitutions the branches may refer to, or `nil` inside a
  ///     substitution.
  init(
    _ plural: [(name: String, value: StringCatalogFile.Variant)],
    substitutions: [String: FormatSubstitution]?
  ) {
    values = Array(repeating: nil, count: PluralCategory.allCases.count)
    for (name, variant) in plural {
      guard let category = PluralCategory(rawValue: name) else {
        unknownNames.append(name)
        continue
      }
      guard let unit = variant.resolvedUnit else { continue }
      values[category.index] = CatalogValue(unit, substitutions: substitutions)
    }
  }

  /// The branch for a category, if the catalog has one.
  subscript(category: PluralCategory) -> CatalogValue? {
    values[category.index]
  }

  /// Every branch with its category, in CLDR order.
  var branches: [(category: PluralCategory, value: CatalogValue)] {
    PluralCategory.allCases.compactMap { category in
      self[category].map { (category, $0) }
    }
  }

  /// Whether `body` holds for every branch, called in CLDR order until it does not.
  func allBranches(_ body: (CatalogValue) -> Bool) -> Bool {
    values.allSatisfy { $0.map(body) ?? true }
  }

  /// Chooses the branch for a number.
  ///
  /// An explicit `zero` branch wins for 0; otherwise the rule's category is used, and `other`
  /// when that category is missing.
  ///
  /// - Parameters:
  ///   - count: The number the text talks about.
  ///   - rule: The plural rule of the branches' language.
  /// - Returns: The branch, or `nil` when neither the category nor `other` is present.
  func value(for count: PluralOperands, rule: PluralRule) -> CatalogValue? {
    if count.isZero, let zero = self[.zero] {
      return zero
    }
    return self[rule.category(for: count)] ?? self[.other]
  }

  /// Whether a branch shows its number with a floating-point specifier (`%f`, `%.1f`, `%g`,
  /// …), so the number may have a fraction and choose the categories fractions take.
  var takesFractions: Bool {
    !allBranches { !$0.template.showsFloatingPoint }
  }
}

extension LocalizedArgument {
  /// The number this argument chooses plural branches by, or `nil` for text.
  ///
  /// A `Double` counts by its shortest decimal form: `1.0` as 1, `1.5` as a number with one
  /// visible fraction digit (see ``PluralOperands``).
  var pluralOperand: PluralOperands? {
    switch self {
    case .int(let number): PluralOperands(number)
    case .double(let number): PluralOperands(number)
    case .string: nil
    }
  }
}

extension PluralCategory {
  /// The position of the category in `allCases`.
  fileprivate var index: Int {
    switch self {
    case .zero: 0
    case .one: 1
    case .two: 2
    case .few: 3
    case .many: 4
    case .other: 5
    }
  }
}
