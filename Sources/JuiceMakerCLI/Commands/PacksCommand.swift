import FoundationEssentials
import JuiceMakerKit

/// `juice-maker packs [publish FILE… | retire NAME…]`: where each recipe pack and string
/// catalog comes from, in load order; or a change of the store's menu layer.
///
/// `publish` checks the files together with every other layer, as `validate` does, and
/// stores them in the store only if the menu then has no error; `retire` removes files
/// from the store's layer under the same check. Each is one publication of the store's
/// journal of menus: who (`--shop`), when, which files. A publication made by another
/// process while this one was checked refuses this one, so no check is ever stale.
struct PacksCommand: Command {
  static let publishWord = "publish"
  static let retireWord = "retire"
  static let definition = CommandDefinition(
    name: "packs",
    arguments: [
      ArgumentSpec(
        name: "ACTION", completion: .choices, isOptional: true,
        choices: [publishWord, retireWord]),
      ArgumentSpec(name: "FILE", completion: .file, isVariadic: true),
    ], showsOneLanguage: true, showsJuiceNames: false)

  /// What the command does.
  enum Mode {
    case show
    case publish(files: [String])
    case retire(names: [String])
  }

  let context: Context
  let mode: Mode

  var changesStore: Bool {
    if case .show = mode { return false }
    return true
  }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    let arguments = line.arguments
    guard let first = arguments.first else {
      mode = .show
      return
    }
    let rest = Array(arguments.dropFirst())
    guard !rest.isEmpty else {
      throw .missingArgument(
        argument: first == Self.publishWord ? "FILE" : "NAME", command: "packs " + first)
    }
    mode = first == Self.publishWord ? .publish(files: rest) : .retire(names: rest)
  }

  func run(input: inout any LineInput) throws(CLIError) {
    switch mode {
    case .show: try show()
    case .publish(let files): try publish(files)
    case .retire(let names): try retire(names)
    }
  }

  // MARK: - Showing the layers

  private func show() throws(CLIError) {
    // The default store is not created to be listed.
    let storage = try context.menuStorage(creating: .never, required: false)
    let published = try storage.map { storage throws(CLIError) in try read(storage.publishedMenu) }
    let publications = try storage.map { storage throws(CLIError) in
      try read { () throws(StockStorageError) in try storage.menuPublications(limit: 20) }
    }
    let menu = published ?? .empty
    let packs = try DataLayers.packs(
      given: context.global.recipes, configuration: context.configuration, published: menu)
    let catalogs: [DataLayers.File]
    do throws(LocalizationError) {
      catalogs = try DataLayers.catalogs(
        given: context.global.localization, configuration: context.configuration,
        published: menu)
    } catch {
      throw .invalidStrings(error)
    }
    if context.json {
      context.emit(
        PacksDocument(
          packs: packs.map(PacksDocument.File.init),
          catalogs: catalogs.map(PacksDocument.File.init),
          store: storage.map { storage in
            PacksDocument.Store(
              location: storage.location, version: menu.version,
              publications: (publications ?? []).map(PacksDocument.Publication.init))
          }))
      return
    }
    let texts = context.texts
    for (heading, files) in [("packs.recipes", packs), ("packs.catalogs", catalogs)] {
      context.say(texts.string(heading))
      let names = files.map { texts.shown($0.name) }
      let layers = files.map { texts.string("packs.layer." + $0.layer.rawValue) }
      let nameWidth = names.map(\.displayWidth).max() ?? 0
      let layerWidth = layers.map(\.displayWidth).max() ?? 0
      for (index, file) in files.enumerated() {
        var line =
          "  " + names[index].padded(to: nameWidth) + "  " + layers[index].padded(to: layerWidth)
          + "  " + texts.shown(file.path)
        if !file.replaces.isEmpty {
          let replaced = texts.localizer.list(
            file.replaces.map { texts.string("packs.layer." + $0.rawValue) })
          line += "  (" + texts.string("packs.replaces", .string(replaced)) + ")"
        }
        context.say(line)
      }
    }
    guard let storage else { return }
    if let last = publications?.first {
      context.say(
        texts.string(
          "packs.store.version", .string(texts.shown(storage.location)), .int(menu.version),
          .string(texts.shown(last.editor)),
          .string(HistoryCommand.localTime(last.date))))
    } else {
      context.say(texts.string("packs.store.empty", .string(texts.shown(storage.location))))
    }
  }

  // MARK: - Publishing

  private func publish(_ paths: [String]) throws(CLIError) {
    var files: [PublishedFile] = []
    for path in paths {
      let name = URL(fileURLWithPath: path).lastPathComponent
      guard !name.hasPrefix("."), DataLayers.isPack(name) || DataLayers.isCatalog(name) else {
        throw .notAPackOrCatalog(path)
      }
      switch Catalog.readFile(atPath: path) {
      case .bytes(let bytes):
        files.removeAll { $0.name == name }
        files.append(PublishedFile(name: name, contents: bytes))
      case .unreadable(let reason):
        throw .unreadableFile(path: path, option: "packs publish", reason: reason.description)
      }
    }
    try change(publishing: files, retiring: [])
  }

  private func retire(_ names: [String]) throws(CLIError) {
    try change(publishing: [], retiring: names.map { URL(fileURLWithPath: $0).lastPathComponent })
  }

  /// Checks the menu the change leaves, then makes it one publication.
  private func change(publishing files: [PublishedFile], retiring names: [String])
    throws(CLIError)
  {
    guard
      let storage = try context.menuStorage(
        creating: context.usesDefaultStore ? .ifMissing : .never, required: true)
    else { return }
    let current = try read(storage.publishedMenu)
    var layer = Dictionary(current.files.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    for name in names {
      guard layer.removeValue(forKey: name) != nil else {
        throw .notPublished(name: name, store: storage.location)
      }
    }
    for file in files { layer[file.name] = file }
    let candidate = PublishedMenu(
      version: current.version, files: layer.values.sorted { $0.name < $1.name })
    let problems = try problems(of: candidate)
    guard problems.isEmpty else { throw .menuRefused(problems: problems) }
    let publication = try read { () throws(StockStorageError) in
      try storage.publish(
        files, retiring: names, by: context.shopName, expectingVersion: current.version)
    }
    guard let publication else { throw .menuChanged(store: storage.location) }
    let texts = context.texts
    if context.json {
      context.emit(PacksDocument.Publication(publication))
      return
    }
    if !publication.published.isEmpty {
      context.say(
        texts.string(
          "packs.published", .string(texts.localizer.list(publication.published.map(texts.shown))),
          .string(texts.shown(storage.location)), .int(publication.version)))
    }
    if !publication.retired.isEmpty {
      context.say(
        texts.string(
          "packs.retired", .string(texts.localizer.list(publication.retired.map(texts.shown))),
          .string(texts.shown(storage.location)), .int(publication.version)))
    }
  }

  /// Every error the menu would have with the store's layer `layer`: the packs' and the
  /// catalogs' problems, then what `validate` counts as an error.
  private func problems(of layer: PublishedMenu) throws(CLIError) -> [String] {
    let texts = context.texts
    var problems: [String] = []
    let packFiles = try DataLayers.packs(
      given: context.global.recipes, configuration: context.configuration, published: layer)
    var catalog: Catalog?
    do throws(CLIError) {
      catalog = try DataLayers.loadCatalog(
        packFiles, cache: context.configuration.compiledCache)
    } catch {
      guard case .invalidPacks(let error) = error else { throw error }
      problems += error.problems.map { $0.localized(texts) }
    }
    var strings: StringCatalog?
    do throws(LocalizationError) {
      strings = try DataLayers.loadStrings(
        DataLayers.catalogs(
          given: context.global.localization, configuration: context.configuration,
          published: layer), cache: context.configuration.compiledCache)
    } catch {
      problems += error.lines.map { texts.shown($0) }
    }
    if let catalog, let strings {
      let checked = ValidateCommand.check(catalog, strings)
      problems += checked.issues.filter { $0.severity == .error }.map { $0.localized(texts) }
      problems += checked.clashes.map { $0.message(texts) }
    }
    return problems
  }

  // MARK: - The store

  private func read<Value>(_ body: () throws(StockStorageError) -> Value) throws(CLIError)
    -> Value
  {
    do throws(StockStorageError) {
      return try body()
    } catch {
      throw CLIError(error)
    }
  }

}

/// `{"packs":[{"name","layer","path","replaces"}],"catalogs":[…],"store":{…}}`.
struct PacksDocument: Encodable {
  struct File: Encodable {
    let name: String
    let layer: String
    let path: String
    let replaces: [String]

    init(_ file: DataLayers.File) {
      name = file.name
      layer = file.layer.rawValue
      path = file.path
      replaces = file.replaces.map(\.rawValue)
    }
  }

  /// `{"version","date","editor","published","retired"}`.
  struct Publication: Encodable {
    let version: Int
    let date: String
    let editor: String
    let published: [String]
    let retired: [String]

    init(_ publication: MenuPublication) {
      version = publication.version
      date = TimeText.text(publication.date, offset: 0, style: .isoUTC)
      editor = publication.editor
      published = publication.published
      retired = publication.retired
    }
  }

  /// The store's menu layer: where, its version, and its newest publications.
  struct Store: Encodable {
    let location: String
    let version: Int
    let publications: [Publication]
  }

  let packs: [File]
  let catalogs: [File]
  /// `null` when the store does not exist.
  let store: Store?
}

extension Context {
  /// The store's storage, able to hold a menu layer; `nil` when it does not exist and is
  /// not `required`.
  func menuStorage(creating: StoreCreation, required: Bool) throws(CLIError)
    -> (any MenuStorage)?
  {
    let opened: (storage: any StockStorage, created: Bool)
    do throws(CLIError) {
      opened = try openStorage(fruits: [], creating: creating)
    } catch {
      if !required, case .store(.missing) = error { return nil }
      throw error
    }
    if opened.created { noteCreatedDefaultStore(opened.storage) }
    guard let storage = opened.storage as? any MenuStorage else {
      throw .menuLayerUnsupported(store: opened.storage.location)
    }
    return storage
  }

  /// The menu layer of the store, or an empty one when the store does not exist; the store
  /// is not created.
  func existingPublishedMenu() throws(CLIError) -> PublishedMenu {
    guard let storage = try menuStorage(creating: .never, required: false) else { return .empty }
    return try Self.publishedMenu(of: storage)
  }
}
