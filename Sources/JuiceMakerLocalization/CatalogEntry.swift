/// One key of a loaded catalog: the file that defines it and how its values are chosen.
///
/// A plain value in one array with every other key's, its comment and values in arrays
/// beside it (see ``StringCatalog/Storage``): a large catalog has tens of thousands of keys,
/// and objects for each would be megabytes.
struct CatalogEntry: Sendable {
  /// The position of the file that defines the key in ``StringCatalog/files``.
  let fileIndex: Int
  /// The index of the source language of the key's file in ``StringCatalog/languages``.
  let sourceIndex: Int
  /// Whether translators should translate the key (`shouldTranslate` in the file); when not,
  /// every language shows the source language's value.
  let shouldTranslate: Bool
  /// Whether the file gives no value in its source language, so the key itself is the value.
  let keyIsSourceText: Bool
  /// Whether a value in some language takes arguments; when none does, the key is taken to be
  /// shown without arguments, so always as written, and its values are not checked for
  /// specifiers.
  let takesArguments: Bool
}
