import JuiceMakerKit

extension Context {
  /// The string catalogs with every language of every key, to find a juice or fruit by a
  /// name in any language: `strings` when it was loaded so, else the same files loaded again.
  ///
  /// A user's catalog left out of the first load was warned about then; one the full load
  /// leaves out besides (for a problem in a language the first did not build) is left out
  /// without a second warning: `validate` reports it.
  ///
  /// - Throws: `CLIError.invalidStrings` when a built-in or given catalog has problems in a
  ///   language the first load did not build.
  func stringsInEveryLanguage() throws(CLIError) -> StringCatalog {
    if strings.selection == .everything { return strings }
    do throws(LocalizationError) {
      return try DataLayers.loadStringsSkippingBrokenUserCatalogs(
        catalogFiles, cache: configuration.compiledCache
      ).strings
    } catch {
      throw .invalidStrings(error)
    }
  }
}
