import JuiceMakerKit

/// One data file compiled into the binary by the EmbedData build plugin.
struct BuiltInFile: Sendable {
  /// `Recipes`, `Localization`, or `Assets` for the kiosk page.
  let directory: String
  /// The file's name, such as `fruits.json`.
  let name: String
  /// The file's contents, byte for byte.
  let text: String
  /// The compiled form of a pack or string catalog without problems, read in place.
  let compiled: StaticString?

  /// Where the loaders read the file from: its compiled form, else its text.
  var source: PackSource {
    compiled.map { .compiled($0, name: shownPath, text: text) }
      ?? .bytes(Array(text.utf8), name: shownPath)
  }

  /// The path messages name the file by, such as `<built-in>/Recipes/fruits.json`.
  var shownPath: String { "<built-in>/" + directory + "/" + name }
}
