import Foundation

/// Locations of the shipped data and the test fixtures, found from this file.
enum Paths {
  /// The package root.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// The shipped `Recipes/` directory.
  static let recipes = root.appendingPathComponent("Recipes")
  /// The shipped `Localization/` directory.
  static let localization = root.appendingPathComponent("Localization")
  /// `Tests/JuiceMakerKitTests/Fixtures`.
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().appendingPathComponent("Fixtures")
  /// One directory of fixture packs.
  static func packs(_ name: String) -> URL {
    fixtures.appendingPathComponent("Packs").appendingPathComponent(name)
  }

  /// A new empty directory under the system's temporary directory.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("juice-maker-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
