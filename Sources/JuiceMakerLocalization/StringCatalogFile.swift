/// The on-disk shape of an Apple String Catalog (`.xcstrings`) file, exactly as Xcode writes it.
///
/// Decoding is tolerant: unknown fields are ignored, `strings` and every field below it except a
/// string unit's `value` may be absent or `null`, and states are kept as written. Wrong types and
/// malformed JSON become ``LocalizationError`` values naming the file and the field.
///
/// Objects keyed by name (`strings` by key, `localizations` by language tag, `plural` by
/// category, `device` by device, `substitutions` by name) keep their members in written order as
/// `(name, value)` pairs; of a name written twice, the parser has kept the last copy.
struct StringCatalogFile: Sendable {
  /// The language whose values are the reference, usually `en`.
  var sourceLanguage: String
  /// The format version, `1.0` today.
  var version: String?
  /// The entries, by key.
  var strings: [(name: String, value: Entry)]?
  /// The languages, as spelled, that the file's keys give values in but a selection left
  /// out: their values are not built, and their names still count.
  var unbuiltLanguages: Set<String> = []

  /// One key of the catalog.
  struct Entry: Sendable {
    var comment: String?
    var extractionState: String?
    var shouldTranslate: Bool?
    /// The localizations, by language tag as written.
    var localizations: [(name: String, value: Localization)]?
  }

  /// One key in one language.
  struct Localization: Sendable {
    var stringUnit: StringUnit?
    /// Several values, as Xcode writes for an array in `Info.plist` or App Shortcuts phrases.
    var stringSet: StringSet?
    var variations: Variations?
    var substitutions: [(name: String, value: Substitution)]?
  }

  /// A value with its translation state.
  struct StringUnit: Sendable {
    var state: String?
    var value: String
  }

  /// Several values with one translation state.
  struct StringSet: Sendable {
    var state: String?
    var values: [String]
  }

  /// Values that vary by plural category or by device.
  struct Variations: Sendable {
    /// The branches by plural category name, such as `one`.
    var plural: [(name: String, value: Variant)]?
    /// The branches by device name, such as `iphone` or `other`.
    var device: [(name: String, value: Variant)]?
  }

  /// One branch of a variation.
  struct Variant: Sendable {
    var stringUnit: StringUnit?
    var variations: Variations?
  }

  /// A `%#@name@` substitution: an argument whose surrounding words vary by plural.
  struct Substitution: Sendable {
    var argNum: Int?
    var formatSpecifier: String?
    var variations: Variations?
  }
}
