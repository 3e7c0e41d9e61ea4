import Foundation

/// Where the benchmark finds the package's data and the programs it starts.
struct Paths: Sendable {
  /// The package root, holding `Recipes/` and `Localization/`.
  let root: URL
  /// The directory of this executable, where the build puts `juice-maker` and
  /// `juice-maker-baseline` too.
  let executables: URL
  /// The `juice-maker` given with `--juice-maker`, started instead of the build's.
  let juiceMaker: String?

  /// Finds the package root and the build directory.
  ///
  /// - Parameters:
  ///   - root: The root given with `--root`, if any.
  ///   - juiceMaker: The `juice-maker` given with `--juice-maker`, if any.
  /// - Throws: `BenchmarkError.failed` when no root holds `Recipes/` and `Localization/`.
  init(root: String?, juiceMaker: String? = nil) throws(BenchmarkError) {
    self.juiceMaker = juiceMaker
    let fileManager = FileManager.default
    let candidates =
      root.map { [$0] } ?? [
        fileManager.currentDirectoryPath,
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
          .deletingLastPathComponent().path,
      ]
    guard
      let found = candidates.first(where: { candidate in
        ["Recipes", "Localization"].allSatisfy {
          fileManager.fileExists(atPath: candidate + "/" + $0)
        }
      })
    else {
      throw .failed(
        "no package root with Recipes/ and Localization/ among \(candidates); pass --root DIR")
    }
    self.root = URL(fileURLWithPath: found, isDirectory: true)
    let executable =
      (try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    executables = URL(fileURLWithPath: executable).deletingLastPathComponent()
  }

  /// A program of the same build, or an error saying how to build it.
  func program(_ name: String) throws(BenchmarkError) -> String {
    if name == "juice-maker", let juiceMaker {
      guard FileManager.default.isExecutableFile(atPath: juiceMaker) else {
        throw .failed("\(juiceMaker), given with --juice-maker, is not an executable file")
      }
      return juiceMaker
    }
    let path = executables.appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw .failed(
        "\(path) is missing; `swift run -c release juice-maker-benchmark` builds it")
    }
    return path
  }
}
