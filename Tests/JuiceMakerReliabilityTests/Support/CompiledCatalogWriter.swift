import JuiceMakerKit

@testable import JuiceMakerCatalog
@testable import JuiceMakerLocalization

// Writes the values a compiled catalog was read into back in its layout: the fuzz test's
// check that what a reader gives reads again the same. The package writes compiled
// catalogs from their JSON only; this restates the layout from the values, as the reader
// reads it.

extension StringCatalogFile {
  /// The body of the compiled form of the values read, in the layout the compiler writes
  /// from JSON, so that what a reader gave can be read again.
  func compiled(duplicates: [JSONParser.DuplicateKey]) -> [UInt8] {
    var writer = CompiledWriter()
    writer.string(sourceLanguage)
    writer.optional(version)
    writer.integer(duplicates.count)
    for duplicate in duplicates {
      writer.string(duplicate.key)
      writer.integer(duplicate.line)
      writer.integer(duplicate.column)
      writer.integer(duplicate.droppedLine)
    }
    writer.flag(strings != nil)
    writer.integer(strings?.count ?? 0)
    for (key, entry) in strings ?? [] {
      writer.string(key)
      writer.part { entry.write(to: &$0) }
    }
    return writer.bytes
  }
}

extension StringCatalogFile.Entry {
  fileprivate func write(to writer: inout CompiledWriter) {
    writer.optional(comment)
    writer.optional(extractionState)
    writer.integer(shouldTranslate.map { $0 ? 2 : 1 } ?? 0)
    writer.flag(localizations != nil)
    writer.integer(localizations?.count ?? 0)
    for (language, localization) in localizations ?? [] {
      writer.string(language)
      writer.part { localization.write(to: &$0) }
    }
  }
}

extension StringCatalogFile.Localization {
  fileprivate func write(to writer: inout CompiledWriter) {
    writer.flag(stringUnit != nil)
    stringUnit?.write(to: &writer)
    writer.flag(stringSet != nil)
    if let stringSet {
      writer.optional(stringSet.state)
      writer.integer(stringSet.values.count)
      for value in stringSet.values { writer.string(value) }
    }
    writer.flag(variations != nil)
    variations?.write(to: &writer)
    writer.flag(substitutions != nil)
    writer.integer(substitutions?.count ?? 0)
    for (name, substitution) in substitutions ?? [] {
      writer.string(name)
      writer.flag(substitution.argNum != nil)
      if let argNum = substitution.argNum { writer.integer(argNum) }
      writer.optional(substitution.formatSpecifier)
      writer.flag(substitution.variations != nil)
      substitution.variations?.write(to: &writer)
    }
  }
}

extension StringCatalogFile.StringUnit {
  fileprivate func write(to writer: inout CompiledWriter) {
    writer.optional(state)
    writer.string(value)
  }
}

extension StringCatalogFile.Variations {
  fileprivate func write(to writer: inout CompiledWriter) {
    for branches in [plural, device] {
      writer.flag(branches != nil)
      writer.integer(branches?.count ?? 0)
      for (name, variant) in branches ?? [] {
        writer.string(name)
        writer.flag(variant.stringUnit != nil)
        variant.stringUnit?.write(to: &writer)
        writer.flag(variant.variations != nil)
        variant.variations?.write(to: &writer)
      }
    }
  }
}
