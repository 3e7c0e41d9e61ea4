/// One catalog value compiled for rendering: its text, its translation state, and its format
/// parsed once into segments.
///
/// A value rather than an object, held where its localization is: a large catalog has tens
/// of thousands, most of them names.
struct CatalogValue: Sendable {
  /// The translation state as written (`translated`, `new`, `needs_review`, `stale`, or any
  /// other word), or `nil` when the catalog gives none or an empty one.
  let state: String?
  /// The parsed format, which holds the value as written.
  let template: FormatTemplate

  /// The value exactly as written in the catalog.
  var text: String { template.text }

  /// Compiles a string unit.
  ///
  /// - Parameters:
  ///   - unit: The decoded string unit.
  ///   - substitutions: The substitutions `%#@name@` may refer to, or `nil` inside a
  ///     substitution's own branches, where `%arg` stands for its argument.
  init(_ unit: StringCatalogFile.StringUnit, substitutions: [String: FormatSubstitution]?) {
    // Xcode and translation tools write `""` for no state.
    self.state = unit.state?.isEmpty == true ? nil : unit.state
    self.template = FormatTemplate(parsing: unit.value, substitutions: substitutions)
  }
}

// MARK: - Variants

extension StringCatalogFile.Variant {
  /// The string unit of this branch; a branch that varies by device uses
  /// ``StringCatalogFile/Variations/commandLineDevice``.
  var resolvedUnit: StringCatalogFile.StringUnit? {
    stringUnit ?? variations?.chosenDevice?.resolvedUnit
  }
}

extension StringCatalogFile.Variations {
  /// The device a command line is shown on: `mac`, the desktop, as a program on macOS would be.
  static let commandLineDevice = "mac"

  /// The branch of a variation by device that is rendered: ``commandLineDevice``, else `other`,
  /// the branch for devices not named.
  var chosenDevice: StringCatalogFile.Variant? {
    guard let device else { return nil }
    return
      (device.first { $0.name == Self.commandLineDevice }
      ?? device.first { $0.name == "other" })?.value
  }
}
