import Foundation
import JuiceMakerKit

/// Where the packs and string catalogs come from, in layers.
///
/// First the files built into the binary, then the user's configuration directory
/// (`$XDG_CONFIG_HOME/juice-maker/recipes/` and `…/localization/`, else under
/// `~/.config/`), then the directory given by `--recipes`/`--localization` or
/// `JUICE_MAKER_RECIPES`/`JUICE_MAKER_LOCALIZATION`. A file in a later layer replaces the
/// earlier layers' file of the same name; a new name adds to them. The merged files load
/// in file-name order, as one directory's would.
enum DataLayers {
  /// A layer of data files.
  enum Layer: String, Sendable, Encodable, CaseIterable {
    /// Compiled into the binary.
    case builtIn = "built-in"
    /// The user's configuration directory.
    case user
    /// The directory given on the command line or in the environment.
    case given
  }

  /// One file that takes part, and the layers whose file of the same name it replaces.
  struct File: Sendable {
    let name: String
    let layer: Layer
    /// The path on disk, or `<built-in>/…` for a file compiled into the binary.
    let path: String
    let replaces: [Layer]
    /// The contents of a built-in file.
    let builtInText: String?
  }

  /// The packs of every layer, in load order.
  ///
  /// - Parameters:
  ///   - given: The `--recipes` directory or `JUICE_MAKER_RECIPES`, if any.
  ///   - configuration: For the user's directory.
  /// - Throws: `CLIError.invalidPacks` when the given directory is missing, unreadable or
  ///   holds no pack, or the user's directory cannot be listed.
  static func packs(given: String?, configuration: Configuration) throws(CLIError) -> [File] {
    do throws(CatalogError) {
      return try layered(
        builtIn: "Recipes",
        user: packFiles(in: configuration.configurationDirectory + "/recipes", required: false),
        given: given.map { path throws(CatalogError) in try packFiles(in: path, required: true) }
          ?? [])
    } catch {
      throw .invalidPacks(error)
    }
  }

  /// The string catalogs of every layer, in load order.
  ///
  /// - Parameters:
  ///   - given: The `--localization` directory or `JUICE_MAKER_LOCALIZATION`, if any.
  ///   - configuration: For the user's directory.
  /// - Throws: `LocalizationError` when the given directory is missing, unreadable or holds
  ///   no catalog, or the user's directory cannot be listed.
  static func catalogs(given: String?, configuration: Configuration) throws(LocalizationError)
    -> [File]
  {
    try layered(
      builtIn: "Localization",
      user: catalogFiles(
        in: configuration.configurationDirectory + "/localization", required: false),
      given: given.map { path throws(LocalizationError) in
        try catalogFiles(in: path, required: true)
      } ?? [])
  }

  /// The version of the built-in data, a hash of its files.
  static var builtInVersion: String { BuiltInData.version }

  /// Loads packs.
  static func loadCatalog(_ packs: [File]) throws(CLIError) -> Catalog {
    do throws(CatalogError) {
      return try Catalog.load(
        packs.map { file in
          file.builtInText.map { .bytes(Array($0.utf8), name: file.path) } ?? .file(file.path)
        })
    } catch {
      throw .invalidPacks(error)
    }
  }

  /// Loads string catalogs.
  static func loadStrings(_ catalogs: [File]) throws(LocalizationError) -> StringCatalog {
    var sources: [(name: String, data: Data)] = []
    for file in catalogs {
      if let text = file.builtInText {
        sources.append((file.path, Data(text.utf8)))
        continue
      }
      // Read as packs are: a regular file of at most 16 MiB.
      switch Catalog.readFile(atPath: file.path) {
      case .bytes(let bytes):
        sources.append((file.path, Data(bytes)))
      case .unreadable(.unreadable(let detail)):
        throw .unreadableFile(file: file.path, reason: detail)
      case .unreadable(.notAFile):
        throw .unreadableFile(file: file.path, reason: "not a regular file")
      case .unreadable(let reason):
        throw .unreadableFile(file: file.path, reason: reason.description)
      }
    }
    return try StringCatalog(sources: sources)
  }

  // MARK: - Finding the files

  private static func layered(builtIn directory: String, user: [String], given: [String])
    -> [File]
  {
    var files: [String: File] = [:]
    for file in BuiltInData.files where file.directory == directory {
      files[file.name] = File(
        name: file.name, layer: .builtIn, path: file.shownPath, replaces: [],
        builtInText: file.text)
    }
    for (layer, paths) in [(Layer.user, user), (.given, given)] {
      for path in paths {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let replaced = files[name].map { $0.replaces + [$0.layer] } ?? []
        files[name] = File(
          name: name, layer: layer, path: path, replaces: replaced, builtInText: nil)
      }
    }
    return files.values.sorted { $0.name < $1.name }
  }

  /// The packs of a directory; a missing or empty optional directory has none.
  private static func packFiles(in path: String, required: Bool) throws(CatalogError) -> [String] {
    let directory = URL(fileURLWithPath: path, isDirectory: true)
    do throws(CatalogError) {
      return try Catalog.packFiles(in: directory)
    } catch {
      let absent = error.problems.allSatisfy {
        $0.reason == .directoryMissing || $0.reason == .noPacks
      }
      if !required && absent { return [] }
      throw error
    }
  }

  /// The string catalogs of a directory; a missing optional directory has none.
  private static func catalogFiles(in path: String, required: Bool) throws(LocalizationError)
    -> [String]
  {
    let directory = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      if required {
        throw .unreadableDirectory(path: directory.path, reason: "no such directory")
      }
      return []
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .unreadableDirectory(path: directory.path, reason: error.localizedDescription)
    }
    let files = names.filter { $0.hasSuffix(".xcstrings") && !$0.hasPrefix(".") }.sorted()
    if files.isEmpty && required {
      throw .noCatalogFiles(location: directory.path)
    }
    return files.map { directory.appending(path: $0, directoryHint: .notDirectory).path }
  }
}
