/// One data file compiled into the binary by the EmbedData build plugin.
struct BuiltInFile: Sendable {
  /// `Recipes`, `Localization`, or `Assets` for the kiosk page.
  let directory: String
  /// The file's name, such as `fruits.json`.
  let name: String
  /// The file's contents, byte for byte.
  let text: String

  /// The path messages name the file by, such as `<built-in>/Recipes/fruits.json`.
  var shownPath: String { "<built-in>/" + directory + "/" + name }
}
