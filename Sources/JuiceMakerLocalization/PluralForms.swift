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

  /// Chooses the branch for a count.
  ///
  /// An explicit `zero` branch wins for 0; otherwise the rule's category is used, and `other`
  /// when that category is missing.
  ///
  /// - Parameters:
  ///   - count: The number the text talks about.
  ///   - rule: The plural rule of the branches' language.
  /// - Returns: The branch, or `nil` when neither the category nor `other` is present.
  func value(for count: Int, rule: PluralRule) -> CatalogValue? {
    value(for: .whole(count), rule: rule)
  }

  /// Chooses the branch for a whole or fractional count: a fractional one takes `other`.
  ///
  /// - Parameters:
  ///   - count: The number the text talks about.
  ///   - rule: The plural rule of the branches' language.
  /// - Returns: The branch, or `nil` when neither the category nor `other` is present.
  func value(for count: PluralCount, rule: PluralRule) -> CatalogValue? {
    if case .whole(0) = count, let zero = self[.zero] {
      return zero
    }
    return self[count.category(rule)] ?? self[.other]
  }
}

/// The number a plural branch is chosen for.
///
/// A `Double` argument that is a whole number counts as that number (`1.0` is `one` in
/// English); any other one takes `other`, as CLDR gives English `1.5` and Korean every count.
enum PluralCount: Sendable, Hashable {
  /// A whole number.
  case whole(Int)
  /// A number with a fraction, infinity, or NaN.
  case fractional

  /// The category of the count under a rule, ignoring any `zero` branch.
  func category(_ rule: PluralRule) -> PluralCategory {
    switch self {
    case .whole(let count): rule.category(for: count)
    case .fractional: .other
    }
  }
}

extension LocalizedArgument {
  /// The count this argument chooses plural branches by, or `nil` for text.
  var pluralOperand: PluralCount? {
    switch self {
    case .int(let number): .whole(number)
    case .double(let number): Int(exactly: number).map(PluralCount.whole) ?? .fractional
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
