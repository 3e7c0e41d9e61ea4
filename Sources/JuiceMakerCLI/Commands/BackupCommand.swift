import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite

/// `juice-maker backup FILE`: a consistent snapshot of the store, taken while shops keep
/// ordering: SQLite's online backup API for a store file, a logical export of the store's
/// tables for a PostgreSQL store. FILE is never overwritten.
struct BackupCommand: Command {
  static let definition = CommandDefinition(
    name: "backup", arguments: [ArgumentSpec(name: "FILE", completion: .file)],
    showsOneLanguage: true, showsJuiceNames: false)

  let context: Context
  let file: String

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    file = line.arguments[0]
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let address = context.store
    if !address.isURI {
      // Opened first, so a missing store is refused as every command refuses it (the
      // default store aside, made on first use), and an older one is migrated first.
      _ = try context.openShop()
    }
    do throws(StockStorageError) {
      if address.isURI {
        try PostgresStockStorage.export(uri: address.text, to: file)
      } else {
        try SQLiteStockStorage.backup(store: address.text, to: file)
      }
    } catch {
      if case .alreadyExists(let store, _) = error, store == file { throw .backupExists(file) }
      throw CLIError(error).scrubbed(by: address)
    }
    let texts = context.texts
    let store = texts.shown(address.text)
    if context.json {
      context.emit(BackupDocument(store: ConnectionURI.redactingURIs(in: address.text), file: file))
    } else {
      context.say(texts.string("backup.done", .string(store), .string(texts.shown(file))))
    }
  }
}

/// `juice-maker restore FILE [--store FILE|URI]`: restores a backup into a new store,
/// with its levels, journal (prices and limits too) and recorded migrations.
struct RestoreCommand: Command {
  static let definition = CommandDefinition(
    name: "restore", arguments: [ArgumentSpec(name: "FILE", completion: .file)],
    showsOneLanguage: true, showsJuiceNames: false)

  let context: Context
  let file: String

  var changesStore: Bool { true }

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    file = line.arguments[0]
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let catalog = try context.loadCatalog()
    let address = context.store
    let storage: any StockStorage
    do throws(StockStorageError) {
      if address.isURI {
        storage = try PostgresStockStorage.restore(
          from: file, uri: address.text, fruits: catalog.fruits)
      } else {
        storage = try SQLiteStockStorage.restore(
          backup: file, to: address.text, fruits: catalog.fruits)
      }
    } catch {
      if case .alreadyExists(let store, _) = error {
        throw CLIError.restoreTargetExists(store).scrubbed(by: address)
      }
      throw CLIError(error).scrubbed(by: address)
    }
    let entries: Int
    do {
      entries = try storage.journalCount(JournalQuery())
    } catch {
      throw CLIError(error).scrubbed(by: address)
    }
    let texts = context.texts
    if context.json {
      context.emit(RestoreDocument(store: storage.location, file: file, entries: entries))
    } else {
      context.say(
        texts.string(
          "restore.done", .string(texts.shown(file)), .string(texts.shown(storage.location)),
          .int(entries)))
    }
  }
}

/// `{"ok":true,"store","file"}`.
struct BackupDocument: Encodable {
  let ok = true
  let store: String
  let file: String
}

/// `{"ok":true,"store","file","entries"}`.
struct RestoreDocument: Encodable {
  let ok = true
  let store: String
  let file: String
  let entries: Int
}
