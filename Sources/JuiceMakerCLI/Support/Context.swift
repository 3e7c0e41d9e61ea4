import Foundation
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite

/// What every command needs: the parsed command line, the data, and the streams.
struct Context {
  let invocation: Invocation
  let environment: [String: String]
  let strings: StringCatalog
  let texts: Texts
  let output: any TextOutput
  let errorOutput: any TextOutput

  var json: Bool { invocation.has("json") }
  var shopName: String { invocation["shop"] ?? "main" }

  /// The recipes directory: `--recipes`, `JUICE_MAKER_RECIPES`, or `./Recipes`.
  var recipesDirectory: URL {
    URL(
      fileURLWithPath: invocation["recipes"] ?? environment["JUICE_MAKER_RECIPES"] ?? "Recipes")
  }

  /// The store file: `--store`, `JUICE_MAKER_STORE`, or `store.sqlite` under
  /// `$XDG_STATE_HOME/juice-maker/` (else `~/.local/state/juice-maker/`).
  var storePath: String {
    if let path = invocation["store"] ?? environment["JUICE_MAKER_STORE"], !path.isEmpty {
      return path
    }
    let state: String
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
      state = xdg
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      state = home + "/.local/state"
    }
    return state + "/juice-maker/store.sqlite"
  }

  /// Loads the packs.
  func loadCatalog() throws(CLIError) -> Catalog {
    do {
      return try Catalog.load(from: recipesDirectory)
    } catch {
      throw .invalidPacks(error)
    }
  }

  /// Opens the durable store for the catalog's fruits.
  func openStore(for catalog: Catalog) throws(CLIError) -> FruitStore {
    do {
      let location = storePath
      if PostgresStockStorage.isConnectionURI(location) {
        return FruitStore(storage: try PostgresStockStorage(uri: location, fruits: catalog.fruits))
      }
      return FruitStore(storage: try SQLiteStockStorage(path: location, fruits: catalog.fruits))
    } catch {
      throw CLIError(error)
    }
  }

  /// Every level of the store, or the command's error when it cannot be read.
  func levels(of store: FruitStore) throws(CLIError) -> [Int] {
    do {
      return try store.levels()
    } catch {
      throw CLIError(error)
    }
  }

  /// Writes a line of the command's result.
  func say(_ line: String) {
    output.write(line + "\n")
  }

  /// Writes a JSON document.
  func emit(_ document: some Encodable) {
    output.write(JSONOutput.encode(document))
  }

  /// Fails unless the command got exactly the named arguments.
  func arguments(_ names: [String], command: String) throws(CLIError) -> [String] {
    let given = invocation.arguments
    if given.count > names.count {
      throw .unexpectedArgument(given[names.count], command: command)
    }
    if given.count < names.count {
      throw .missingArgument(argument: names[given.count], command: command)
    }
    return given
  }
}
