import Foundation

/// Where the package, its shipped data, the corpus and the built `juice-maker` are.
enum Paths {
  /// The package root, found by walking up from this file to `Package.swift`.
  static let root: URL = {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("Package.swift").path)
      {
        return directory
      }
      directory.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  }()

  /// The shipped `Recipes/` directory.
  static let recipes = root.appendingPathComponent("Recipes")
  /// The shipped `Localization/` directory.
  static let localization = root.appendingPathComponent("Localization")
  /// `Tests/JuiceMakerReliabilityTests/Corpus`.
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpus")

  /// The `juice-maker` executable under test.
  ///
  /// `JUICE_MAKER_BINARY` when set; else the one `swift test` built next to the test
  /// bundle; else `.build/debug/juice-maker` under the package root.
  static let binary: String = {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["JUICE_MAKER_BINARY"], !path.isEmpty { return path }
    var candidates: [URL] = []
    for start in [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])] {
      guard var directory = start?.deletingLastPathComponent() else { continue }
      // On macOS the test bundle's executable sits three levels inside the bundle.
      for _ in 0..<4 {
        candidates.append(directory.appendingPathComponent("juice-maker"))
        directory.deleteLastPathComponent()
      }
    }
    candidates.append(root.appendingPathComponent(".build/debug/juice-maker"))
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate.path
    }
    return candidates.last?.path ?? "juice-maker"
  }()

  /// Whether the tests run as the superuser, whom file modes do not stop.
  static let isSuperuser = geteuid() == 0
}
