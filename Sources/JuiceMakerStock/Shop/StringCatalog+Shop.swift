public import FoundationEssentials
public import JuiceMakerLocalization

// MARK: - Checking the catalog against the packs

extension StringCatalog {
  /// Checks the catalog against the fruit and juice of the loaded packs and the keys the program
  /// uses.
  ///
  /// For every language of the catalog it reports:
  ///
  /// | Problem | Severity |
  /// | --- | --- |
  /// | `fruit.<id>` or `juice.<id>` missing | error in the source language, else warning |
  /// | a required key missing | error in the source language, else warning |
  /// | a key another language has, missing | warning |
  /// | a malformed or unknown specifier | error |
  /// | a plural variation without `other` | error |
  /// | a plural variation without another category the language needs (`one` in English) | warning |
  /// | a state other than `translated`, an unknown state, an empty value | warning |
  /// | a `fruit.` or `juice.` key no pack uses | warning |
  ///
  /// Keys marked `shouldTranslate: false` need a value in the source language only.
  ///
  /// - Parameters:
  ///   - fruitIDs: The ids of every fruit of the loaded packs, such as `kiwi`.
  ///   - juiceIDs: The ids of every juice of the loaded packs, such as `kiwi-juice`.
  ///   - requiredKeys: The message keys the program uses, such as ``LocalizationKey/messages``.
  /// - Returns: The issues, ordered by key and then by language (source language first), with
  ///   unused names after the key's other issues.
  /// - Complexity: O(*k* × *l*) for *k* keys in *l* languages, plus the length of the values.
  public func validationIssues(
    fruitIDs: [String], juiceIDs: [String], requiredKeys: [String] = []
  ) -> [LocalizationIssue] {
    validationIssues(
      nameKeys: Self.nameKeys(fruitIDs: fruitIDs, juiceIDs: juiceIDs),
      namePrefixes: LocalizationKey.namePrefixes, requiredKeys: requiredKeys)
  }

  /// Loads the catalogs in a directory and validates them, reporting load errors as issues.
  ///
  /// - Parameters:
  ///   - directory: The directory, usually `Localization/`.
  ///   - fruitIDs: The ids of every fruit of the loaded packs.
  ///   - juiceIDs: The ids of every juice of the loaded packs.
  ///   - requiredKeys: The message keys the program uses.
  /// - Returns: Every problem of ``init(directory:)`` as an error issue, or the issues of
  ///   ``validationIssues(fruitIDs:juiceIDs:requiredKeys:)``.
  public static func validationIssues(
    directory: URL, fruitIDs: [String], juiceIDs: [String], requiredKeys: [String] = []
  ) -> [LocalizationIssue] {
    validationIssues(
      directory: directory, nameKeys: nameKeys(fruitIDs: fruitIDs, juiceIDs: juiceIDs),
      namePrefixes: LocalizationKey.namePrefixes, requiredKeys: requiredKeys)
  }

  /// The keys of the names of the packs' fruit and juice.
  private static func nameKeys(fruitIDs: [String], juiceIDs: [String]) -> Set<String> {
    Set(fruitIDs.map(LocalizationKey.fruit) + juiceIDs.map(LocalizationKey.juice))
  }
}
