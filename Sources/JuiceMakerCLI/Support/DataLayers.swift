import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the packs and string catalogs come from, in layers.
///
/// First the files built into the binary, then the files published to the store
/// (`packs publish`), then the user's configuration directory
/// (`$XDG_CONFIG_HOME/juice-maker/recipes/` and `…/localization/`, else under
/// `~/.config/`), then the directory given by `--recipes`/`--localization` or
/// `JUICE_MAKER_RECIPES`/`JUICE_MAKER_LOCALIZATION`. A file in a later layer replaces the
/// earlier layers' file of the same name; a new name adds to them. The merged files load
/// in file-name order, as one directory's would. A file of the store's or the user's layer
/// with problems is left out by the `…SkippingBroken…` loaders, which every command but
/// `validate` and `packs publish` uses.
enum DataLayers {
  /// A layer of data files.
  enum Layer: String, Sendable, Encodable, CaseIterable {
    /// Compiled into the binary.
    case builtIn = "built-in"
    /// Published to the store the command uses.
    case store
    /// The user's configuration directory.
    case user
    /// The directory given on the command line or in the environment.
    case given
  }

  /// One file that takes part, and the layers whose file of the same name it replaces.
  struct File: Sendable {
    let name: String
    let layer: Layer
    /// The path on disk, `<built-in>/…` for a file compiled into the binary, or
    /// `<store>/…` for a file published to the store.
    let path: String
    let replaces: [Layer]
    /// The contents of a file published to the store.
    let contents: [UInt8]?
    /// The file compiled into the binary, for a built-in one.
    var builtIn: BuiltInFile? = nil
  }

  /// The packs of every layer, in load order.
  ///
  /// - Parameters:
  ///   - given: The `--recipes` directory or `JUICE_MAKER_RECIPES`, if any.
  ///   - configuration: For the user's directory.
  /// - Throws: `CLIError.invalidPacks` when the given directory is missing, unreadable or
  ///   holds no pack, or the user's directory cannot be listed.
  ///   - published: The store's menu layer.
  static func packs(
    given: String?, configuration: Configuration, published: PublishedMenu = .empty
  ) throws(CLIError) -> [File] {
    do throws(CatalogError) {
      return try layered(
        builtIn: "Recipes", published: published.files.filter { isPack($0.name) },
        user: packFiles(in: userRecipes(configuration), required: false),
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
  ///   - published: The store's menu layer.
  static func catalogs(
    given: String?, configuration: Configuration, published: PublishedMenu = .empty
  ) throws(LocalizationError) -> [File] {
    try layered(
      builtIn: "Localization", published: published.files.filter { isCatalog($0.name) },
      user: catalogFiles(
        in: userLocalization(configuration), required: false),
      given: given.map { path throws(LocalizationError) in
        try catalogFiles(in: path, required: true)
      } ?? [])
  }

  /// The user's pack directory.
  static func userRecipes(_ configuration: Configuration) -> String {
    configuration.configurationDirectory + "/recipes"
  }

  /// The user's string catalog directory.
  static func userLocalization(_ configuration: Configuration) -> String {
    configuration.configurationDirectory + "/localization"
  }

  /// Every directory a layer reads files from: the user's, then the given ones.
  static func directories(
    givenRecipes: String?, givenLocalization: String?, configuration: Configuration
  ) -> [String] {
    [userRecipes(configuration), userLocalization(configuration)]
      + [givenRecipes, givenLocalization].compactMap { $0 }
  }

  /// The version of the built-in data, a hash of its files.
  static var builtInVersion: String { BuiltInData.version }

  /// Loads packs; every problem stops the load.
  ///
  /// - Parameters:
  ///   - packs: The packs of every layer, in load order.
  ///   - cache: Where compiled packs are kept (`Configuration.compiledCache`).
  static func loadCatalog(_ packs: [File], cache: CompiledCache?) throws(CLIError) -> Catalog {
    do throws(CatalogError) {
      return try Catalog.load(packs.map(\.source), cache: cache)
    } catch {
      throw .invalidPacks(error)
    }
  }

  /// Loads packs, leaving out the user's packs that have problems; see
  /// ``loadSkippingBrokenUserFiles(_:load:namedFiles:)``.
  ///
  /// - Parameters:
  ///   - packs: The packs of every layer, in load order.
  ///   - cache: Where compiled packs are kept (`Configuration.compiledCache`).
  /// - Returns: The catalog, the user's files left out, and their problems (`nil` for none).
  /// - Throws: `CLIError.invalidPacks` with the problems of the other layers.
  static func loadCatalogSkippingBrokenUserPacks(_ packs: [File], cache: CompiledCache?)
    throws(CLIError) -> (
      catalog: Catalog, skipped: [File], problems: CatalogError?
    )
  {
    do throws(CatalogError) {
      let loaded = try loadSkippingBrokenUserFiles(
        packs,
        load: { files throws(CatalogError) in
          try Catalog.load(files.map(\.source), cache: cache)
        },
        namedFiles: { $0.problems.map(\.files) })
      let problems = loaded.failures.flatMap(\.problems)
      return (
        loaded.value, loaded.skipped, problems.isEmpty ? nil : CatalogError(problems: problems)
      )
    } catch {
      throw .invalidPacks(error)
    }
  }

  /// Loads string catalogs; every problem stops the load.
  ///
  /// - Parameters:
  ///   - catalogs: The catalogs of every layer, in load order.
  ///   - selection: The keys and languages to build; every one by default.
  ///   - cache: Where compiled catalogs are kept (`Configuration.compiledCache`).
  static func loadStrings(
    _ catalogs: [File], selection: StringCatalog.Selection = .everything, cache: CompiledCache?
  ) throws(LocalizationError) -> StringCatalog {
    try StringCatalog(catalogs.map(\.source), selection: selection, cache: cache)
  }

  /// Loads string catalogs, leaving out the user's catalogs that have problems; see
  /// ``loadSkippingBrokenUserFiles(_:load:namedFiles:)``.
  ///
  /// - Parameters:
  ///   - catalogs: The catalogs of every layer, in load order.
  ///   - selection: The keys and languages to build; every one by default.
  ///   - cache: Where compiled catalogs are kept (`Configuration.compiledCache`).
  /// - Returns: The strings, the user's files left out, and their problems (`nil` for none).
  /// - Throws: `LocalizationError` with the problems of the other layers.
  static func loadStringsSkippingBrokenUserCatalogs(
    _ catalogs: [File], selection: StringCatalog.Selection = .everything, cache: CompiledCache?
  ) throws(LocalizationError) -> (
    strings: StringCatalog, skipped: [File], problems: LocalizationError?
  ) {
    let loaded = try loadSkippingBrokenUserFiles(
      catalogs,
      load: { files throws(LocalizationError) in
        try loadStrings(files, selection: selection, cache: cache)
      }, namedFiles: { $0.problems.map(\.files) })
    return (
      loaded.value, loaded.skipped, LocalizationError.combining(loaded.failures.flatMap(\.problems))
    )
  }

  /// Loads files, leaving out the user's files that have problems.
  ///
  /// A broken file in the user's layer does not stop the program: the files load without it,
  /// and its problems come back to be shown as a warning. Each problem names its file first,
  /// then, for something defined twice, the file that defined it first; the first of those in
  /// the user's layer is left out, and the rest load again, until they load or a problem
  /// names no file of the user's layer (a built-in or given file broken by itself), which
  /// stops the load. A user's file that needs one left out is left out in turn.
  ///
  /// - Parameters:
  ///   - files: The files of every layer, in load order.
  ///   - load: Loads some of the files.
  ///   - namedFiles: The paths each problem of a failure names, most at fault first.
  /// - Returns: What loaded, the user's files left out, and the failures that left them out.
  /// - Throws: The failure that stops the load.
  private static func loadSkippingBrokenUserFiles<Value, Failure: Error>(
    _ files: [File], load: ([File]) throws(Failure) -> Value,
    namedFiles: (Failure) -> [[String]]
  ) throws(Failure) -> (value: Value, skipped: [File], failures: [Failure]) {
    let user = Set(files.filter { $0.layer == .user || $0.layer == .store }.map(\.path))
    var remaining = files
    var skipped: [File] = []
    var failures: [Failure] = []
    while true {
      do throws(Failure) {
        return (try load(remaining), skipped, failures)
      } catch {
        var faulty: Set<String> = []
        for named in namedFiles(error) {
          guard let culprit = named.first(where: user.contains) else { throw error }
          faulty.insert(culprit)
        }
        let culprits = remaining.filter { faulty.contains($0.path) }
        guard !culprits.isEmpty else { throw error }
        skipped += culprits
        failures.append(error)
        remaining.removeAll { faulty.contains($0.path) }
      }
    }
  }

  // MARK: - Finding the files

  /// Whether a file name is a pack's: `.json`.
  static func isPack(_ name: String) -> Bool { name.hasSuffix(".json") }

  /// Whether a file name is a string catalog's: `.xcstrings`.
  static func isCatalog(_ name: String) -> Bool { name.hasSuffix(".xcstrings") }

  /// How a file published to the store is shown: `<store>/Seasonal.json`.
  static func storePath(_ name: String) -> String { "<store>/" + name }

  private static func layered(
    builtIn directory: String, published: [PublishedFile], user: [String], given: [String]
  ) -> [File] {
    var files: [String: File] = [:]
    func add(
      _ name: String, _ layer: Layer, path: String, contents: [UInt8]?,
      builtIn: BuiltInFile? = nil
    ) {
      let replaced = files[name].map { $0.replaces + [$0.layer] } ?? []
      files[name] = File(
        name: name, layer: layer, path: path, replaces: replaced, contents: contents,
        builtIn: builtIn)
    }
    for file in BuiltInData.files where file.directory == directory {
      add(file.name, .builtIn, path: file.shownPath, contents: nil, builtIn: file)
    }
    for file in published {
      add(file.name, .store, path: storePath(file.name), contents: file.contents)
    }
    for (layer, paths) in [(Layer.user, user), (.given, given)] {
      for path in paths {
        add(URL(fileURLWithPath: path).lastPathComponent, layer, path: path, contents: nil)
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
    var status = stat()
    guard stat(directory.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      if required {
        throw .unreadableDirectory(path: directory.path, reason: "no such directory")
      }
      return []
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .unreadableDirectory(path: directory.path, reason: FailureReason.of(error))
    }
    let files = names.filter { $0.hasSuffix(".xcstrings") && !$0.hasPrefix(".") }.sorted()
    if files.isEmpty && required {
      throw .noCatalogFiles(location: directory.path)
    }
    return files.map { directory.appending(path: $0, directoryHint: .notDirectory).path }
  }
}

// MARK: - Which files a problem names

extension DataLayers.File {
  /// Where the loaders read the file from.
  fileprivate var source: PackSource {
    builtIn?.source ?? contents.map { .bytes($0, name: path) } ?? .file(path)
  }
}

extension CatalogError.Problem {
  /// The files the problem names: the file it is in, then, for an id defined twice, the
  /// file that defined it first.
  fileprivate var files: [String] {
    switch reason {
    case .duplicateFruit(_, let firstFile, _), .duplicateJuice(_, let firstFile, _):
      [file, firstFile]
    default:
      [file]
    }
  }
}

extension LocalizationError {
  /// The files a problem names: the file it is in, then, for a key two files give one
  /// language, the file that gave it first.
  fileprivate var files: [String] {
    switch self {
    case .unreadableFile(let file, _), .malformedJSON(let file, _),
      .invalidStructure(let file, _, _, _, _):
      [file]
    case .duplicateKey(_, _, let firstFile, let secondFile): [secondFile, firstFile]
    case .unreadableDirectory, .noCatalogFiles: []
    case .multiple(let errors): errors.flatMap(\.files)
    }
  }
}
