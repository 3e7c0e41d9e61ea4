/// A CLDR plural category, the name of one branch of a plural variation in a string catalog.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
  /// Used for 0 whenever the catalog provides it, in every language.
  case zero
  /// Singular in English: exactly 1.
  case one
  /// Dual, in languages that have one.
  case two
  /// Paucal, in languages that have one.
  case few
  /// Used for large numbers in some languages.
  case many
  /// The general form; every plural variation needs it.
  case other
}
