/// One catalog value compiled for rendering: its text, its translation state, and its format
/// parsed once into segments.
///
/// A class, so that choosing a value while rendering retains one reference.
final class CatalogValue: Sendable {
  /// The value exactly as written in the catalog.
  let text: String
  /// The translation state as written (`translated`, `new`, `needs_review`, `stale`, or any
  /// other word), or `nil` when the catalog gives none.
  let state: String?
  /// The parsed format.
  let template: FormatTemplate

  /// Compiles a string unit.
  ///
  /// - Parameters:
  ///   - unit: The decoded string unit.
  ///   - substitutions: The substitutions `%#@name@` may refer to, or `nil` inside a
  ///     substitution's own branches, where `%arg` stands for its argument.
  init(_ unit: StringCatalogFile.StringUnit, substitutions: [String: FormatSubstitution]?) {
    self.text = unit.value
    self.state = unit.state
    self.template = FormatTemplate(parsing: unit.value, substitutions: substitutions)
  }
}

// MARK: - Variants

extension StringCatalogFile.Variant {
  /// The string unit of this branch; a branch that varies by device uses its `other` device.
  var resolvedUnit: StringCatalogFile.StringUnit? {
    stringUnit ?? variations?.otherDevice?.resolvedUnit
  }
}

extension StringCatalogFile.Variations {
  /// The `other` branch of a variation by device: the one for devices not named.
  var otherDevice: StringCatalogFile.Variant? {
    device?.first { $0.name == "other" }?.value
  }
}
