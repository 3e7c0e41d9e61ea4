import JuiceMakerKit

/// `juice-maker packs`: where each recipe pack and string catalog comes from, in load order.
struct PacksCommand: Command {
  static let definition = CommandDefinition(
    name: "packs", showsOneLanguage: true, showsJuiceNames: false)

  let context: Context

  init(parsing line: ParsedCommandLine, context: Context) {
    self.context = context
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let packs = try context.packFiles()
    let catalogs = context.catalogFiles
    if context.json {
      context.emit(
        PacksDocument(
          packs: packs.map(PacksDocument.File.init), catalogs: catalogs.map(PacksDocument.File.init)
        ))
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
  }
}

/// `{"packs":[{"name","layer","path","replaces"}],"catalogs":[…]}`.
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

  let packs: [File]
  let catalogs: [File]
}
