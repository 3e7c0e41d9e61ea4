import Foundation

/// Where the shipped data and the built `juice-maker` executable are.
enum Paths {
  /// The package root, found from this file.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  /// The shipped `Recipes/` directory.
  static let recipes = root.appending(path: "Recipes")
  /// The shipped `Localization/` directory.
  static let localization = root.appending(path: "Localization")

  /// The `juice-maker` executable under test: `JUICE_MAKER_BINARY` when set, else the one
  /// built next to the test bundle, else `.build/debug/juice-maker` under the package root.
  static let binary: URL? = {
    if let path = ProcessInfo.processInfo.environment["JUICE_MAKER_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var directories: [URL] = []
    if let executable = Bundle.main.executableURL {
      directories.append(executable.deletingLastPathComponent())
    }
    if let first = CommandLine.arguments.first {
      directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    // On macOS the tests run inside `JuiceMakerPackageTests.xctest`, in the products directory.
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    directories.append(root.appending(path: ".build/debug"))
    return
      directories
      .map { $0.appending(path: "juice-maker") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()
}
