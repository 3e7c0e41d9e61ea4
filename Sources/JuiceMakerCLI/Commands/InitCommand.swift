import JuiceMakerKit

/// `juice-maker init [--store FILE|URI]`: creates a store with the menu's initial stock.
///
/// Every other command opens an existing store only (the per-user default store aside),
/// so a store comes into being on purpose, here, and a mistyped `--store` is refused
/// instead of splitting the stock. `init` where a store exists already is refused and
/// leaves it unchanged.
struct InitCommand: Command {
  static let definition = CommandDefinition(
    name: "init", showsOneLanguage: true, showsJuiceNames: false, loadsMenu: true)

  let context: Context

  init(parsing line: ParsedCommandLine, context: Context) {
    self.context = context
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let catalog = try context.loadCatalog()
    let storage = try context.openStorage(for: catalog, creating: .always).storage
    let store = FruitStore(storage: storage)
    let texts = context.texts
    let fruits = try StockCommand.documents(store, catalog: catalog, texts: texts, context: context)
    if context.json {
      context.emit(InitDocument(store: storage.location, fruits: fruits))
      return
    }
    context.say(texts.string("init.created", .string(texts.shown(storage.location))))
    let names = zip(store.fruits, fruits).map { texts.name(of: $0, count: $1.stock) }
    let width = names.map(\.displayWidth).max() ?? 0
    for (name, fruit) in zip(names, fruits) {
      context.say("  " + name.padded(to: width) + "  " + String(fruit.stock))
    }
  }
}

/// `{"ok":true,"store":"…","fruits":[{"id","name","stock"}]}`: the store `init` created.
struct InitDocument: Encodable {
  let ok = true
  /// The store file, or the connection URI with its password replaced by `***`.
  let store: String
  let fruits: [FruitDocument]
}
