/// One key of a loaded catalog, with its values in every language.
///
/// A class, so that looking a key up while rendering retains one reference rather than
/// copying the entry's strings and values.
final class CatalogEntry: Sendable {
  /// The name of the file that defines the key.
  let file: String
  /// The translator comment.
  let comment: String?
  /// Whether translators should translate the key (`shouldTranslate` in the file); when not,
  /// every language shows the source language's value.
  let shouldTranslate: Bool
  /// The index of the source language of the key's file in ``StringCatalog/languages``.
  let sourceIndex: Int
  /// Whether the file gives no value in its source language, so the key itself is the value.
  let keyIsSourceText: Bool
  /// Whether a value in some language takes arguments; when none does, the key is taken to be
  /// shown without arguments, so always as written, and its values are not checked for
  /// specifiers.
  let takesArguments: Bool
  /// The localizations, indexed like ``StringCatalog/languages``.
  let localizations: [CatalogLocalization?]

  init(
    file: String, comment: String?, shouldTranslate: Bool, sourceIndex: Int,
    keyIsSourceText: Bool, takesArguments: Bool, localizations: [CatalogLocalization?]
  ) {
    self.file = file
    self.comment = comment
    self.shouldTranslate = shouldTranslate
    self.sourceIndex = sourceIndex
    self.keyIsSourceText = keyIsSourceText
    self.takesArguments = takesArguments
    self.localizations = localizations
  }
}
