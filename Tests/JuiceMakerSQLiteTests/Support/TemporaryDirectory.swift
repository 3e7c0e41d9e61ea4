import Foundation

/// A fresh directory for one test, removed with everything in it when released.
struct TemporaryDirectory: ~Copyable {
  /// The directory's path.
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerSQLiteTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  }

  /// A path inside the directory.
  func file(_ name: String) -> String {
    path + "/" + name
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
