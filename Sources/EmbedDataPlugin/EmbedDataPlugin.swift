import Foundation
import PackagePlugin

/// Compiles the shipped `Recipes/*.json` and `Localization/*.xcstrings` into the target
/// it is applied to, as `BuiltInData.swift`, so the `juice-maker` binary runs without them.
///
/// Every file is an input of the build command, so editing one rebuilds the data; a file
/// added or removed is seen when the build is planned again, which every `swift build`
/// and `swift run` does.
@main
struct EmbedDataPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let root = context.package.directoryURL
    var inputs: [URL] = []
    for (directory, suffix) in [("Recipes", ".json"), ("Localization", ".xcstrings")] {
      let folder = root.appending(path: directory, directoryHint: .isDirectory)
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      inputs.append(
        contentsOf: names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted().map {
          folder.appending(path: $0, directoryHint: .notDirectory)
        })
    }
    let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInData.swift")
    return [
      .buildCommand(
        displayName: "Embedding Recipes and Localization into \(target.name)",
        executable: try context.tool(named: "embed-data").url,
        arguments: [output.path] + inputs.map(\.path),
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }
}
