/// One key of a loaded catalog, with its values in every language.
struct CatalogEntry: Sendable {
  /// The name of the file that defines the key.
  let file: String
  /// The translator comment.
  let comment: String?
  /// Whether translators should translate the key (`shouldTranslate` in the file).
  let shouldTranslate: Bool
  /// The localizations, indexed like ``StringCatalog/languages``.
  let localizations: [CatalogLocalization?]
}
