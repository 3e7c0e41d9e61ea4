import Foundation
import PackagePlugin

/// Compiles the shipped `Recipes/*.json` and `Localization/*.xcstrings`, and the files of
/// the target's `Kiosk/Assets/` folder (the kiosk page), into the target it is applied to,
/// as `BuiltInData.swift`, so the `juice-maker` binary runs without them.
///
/// Every file is an input of the build command, so editing one rebuilds the data; a file
/// added or removed is seen when the build is planned again, which every `swift build`
/// and `swift run` does.
@main
struct EmbedDataPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let root = context.package.directoryURL
    // Under the target's default path: `Target.directoryURL` needs tools version 6.1.
    let assets = root.appending(
      path: "Sources/\(target.name)/Kiosk/Assets", directoryHint: .isDirectory)
    var folders = [
      (root.appending(path: "Recipes", directoryHint: .isDirectory), ".json"),
      (root.appending(path: "Localization", directoryHint: .isDirectory), ".xcstrings"),
    ]
    if FileManager.default.fileExists(atPath: assets.path) {
      folders.append((assets, ""))
    }
    var inputs: [URL] = []
    for (folder, suffix) in folders {
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      inputs.append(
        contentsOf: names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted().map {
          folder.appending(path: $0, directoryHint: .notDirectory)
        })
    }
    let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInData.swift")
    return [
      .buildCommand(
        displayName: "Embedding Recipes, Localization and the kiosk page into \(target.name)",
        executable: try context.tool(named: "embed-data").url,
        arguments: [output.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }
}
