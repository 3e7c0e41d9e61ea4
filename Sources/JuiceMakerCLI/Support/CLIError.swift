import JuiceMakerKit
import JuiceMakerPostgres

/// Why a command did not do what was asked. Each case knows its exit code, its
/// JSON error code, and the catalog key of its message.
enum CLIError: Error, Equatable, Sendable {
  /// The first argument is not a command.
  case unknownCommand(String)
  /// An option no command defines.
  case unknownOption(String)
  /// A flag given a value (`--json=yes`).
  case unexpectedValue(option: String)
  /// An option that needs a value came last.
  case missingValue(option: String)
  /// An option given an empty value.
  case emptyValue(option: String)
  /// An option the command does not take.
  case optionNotApplicable(option: String, command: String)
  /// Two options that exclude each other.
  case conflictingOptions(String, String)
  /// A required argument is missing.
  case missingArgument(argument: String, command: String)
  /// An argument the command does not take.
  case unexpectedArgument(String, command: String)
  /// A shop name that is empty once trimmed, too long, or holds a control, bidi or
  /// zero-width character.
  case invalidShopName(String, reason: ShopNameProblem)
  /// A time that is not one `--since` reads.
  case invalidTime(value: String, option: String)
  /// A time `--since` reads, but before year 1 or after year 9999.
  case timeOutOfRange(value: String, option: String)
  /// A request id that is empty, longer than 128 bytes, or not printable ASCII.
  case invalidRequestID(String)
  /// A count or quantity that is not a whole number.
  case notWholeNumber(value: String, option: String)
  /// A count or quantity written with a sign that changes nothing: `+5`, `-0`.
  case signedNumber(value: String, option: String)
  /// A whole number too large for the shop.
  case tooLarge(value: String, option: String)
  /// A number below 1 where a positive one is needed.
  case notPositive(value: String, option: String)
  /// A negative number.
  case negative(value: String, option: String)
  /// No juice has this id or name.
  case unknownJuice(String)
  /// No fruit has this id or name.
  case unknownFruit(String)
  /// A name that several juices or fruits answer to.
  case ambiguousName(String, candidates: [String])
  /// Adding would overflow the stock.
  case overflow(fruit: Fruit.ID, stock: Int, amount: Int)
  /// Some fruit is short for an order.
  case outOfStock([Shortage])
  /// A stock removal asks for more than there is.
  case notEnoughStock(Shortage)
  /// A compare-and-set found another level than the one expected.
  case stockChanged(fruit: Fruit.ID, expected: Int, actual: Int)
  /// The packs have problems.
  case invalidPacks(CatalogError)
  /// The string catalogs have problems.
  case invalidStrings(LocalizationError)
  /// The validation found errors; `count` of them.
  case validationFailed(errors: Int)
  /// A `--store` or `JUICE_MAKER_STORE` that is neither a file path nor a PostgreSQL URI
  /// the program reads as its writer meant; the address is shown redacted.
  case unsupportedStore(String, source: String, reason: StoreAddressProblem)
  /// Standard output or standard error could not be written.
  case outputFailed(OutputFailure, changedStore: Bool)
  /// The store failed: the storage's own error, kept whole, with the engine's cause and
  /// any request id, from which the exit code, the JSON code and the message are derived
  /// here alone (`StockStorageError.exitCode`, `.commandCode`).
  case store(StockStorageError)
  /// The request id was first used for another operation; nothing was done.
  case requestIDReused(RequestID, firstUse: StockOperation)
  /// A rush broke the conservation law.
  case conservationBroken(String)
  /// The command has already written its result; it ends with this code.
  case alreadyReported(ExitCode)
  /// `serve --listen` is not `HOST:PORT` with a numeric address.
  case invalidListen(String)
  /// `serve` on an address other machines can reach, without `--token-file`.
  case tokenFileNeeded(listen: String)
  /// A token file that group or others may read or write.
  case tokenFileMode(path: String, mode: String)
  /// A token file line that is not a token and roles; `line` 0 for a file with no token.
  case invalidTokenFile(path: String, line: Int, reason: TokenFileProblem)
  /// A file an option names that cannot be read.
  case unreadableFile(path: String, option: String, reason: String)
  /// An option given without the one it needs (`--tls-cert` without `--tls-key`).
  case optionNeeds(option: String, other: String)
  /// An `--allow-origin` that is not `http://HOST[:PORT]` or `https://…`.
  case invalidOrigin(String)
  /// The server could not listen.
  case cannotListen(address: String, reason: String)
  /// `backup FILE` where a file is already.
  case backupExists(String)
  /// `restore` into a store that exists already.
  case restoreTargetExists(String)
  /// An option's value that is not one of its words (`--by week`).
  case invalidChoice(value: String, option: String, choices: [String])
  /// `stock limits` with a par level below the minimum.
  case parBelowMinimum(minimum: Int, par: Int)
  /// `packs publish` or `packs retire` that would leave the menu with these problems;
  /// nothing was published.
  case menuRefused(problems: [String])
  /// Another publication changed the store's menu while this one was checked; nothing
  /// was published.
  case menuChanged(store: String)
  /// `packs retire NAME` for a name the store's menu layer does not hold.
  case notPublished(name: String, store: String)
  /// `packs publish FILE` for a file that is neither a pack nor a string catalog.
  case notAPackOrCatalog(String)
  /// A store that cannot hold a published menu.
  case menuLayerUnsupported(store: String)

  /// The exit code the command ends with.
  var exitCode: ExitCode {
    switch self {
    case .outOfStock, .notEnoughStock, .stockChanged: .refused
    case .invalidPacks(let error):
      error.problems.allSatisfy(\.isInputOutput) ? .ioError : .dataError
    case .invalidStrings(let error):
      error.problems.allSatisfy(\.isInputOutput) ? .ioError : .dataError
    case .store(let error): error.exitCode
    case .validationFailed, .conservationBroken, .backupExists, .restoreTargetExists,
      .menuRefused:
      .dataError
    case .menuChanged: .ioError
    case .outputFailed, .cannotListen, .unreadableFile: .ioError
    case .alreadyReported(let code): code
    default: .usage
    }
  }

  /// The `error` field of the JSON document.
  var code: String {
    switch self {
    case .unknownCommand: "unknownCommand"
    case .unknownOption: "unknownOption"
    case .unexpectedValue: "unexpectedValue"
    case .missingValue: "missingValue"
    case .emptyValue: "emptyValue"
    case .optionNotApplicable: "optionNotApplicable"
    case .conflictingOptions: "conflictingOptions"
    case .invalidShopName: "invalidShopName"
    case .invalidTime: "invalidTime"
    case .timeOutOfRange: "timeOutOfRange"
    case .signedNumber: "signedNumber"
    case .unsupportedStore: "unsupportedStore"
    case .outputFailed: "outputFailed"
    case .missingArgument: "missingArgument"
    case .unexpectedArgument: "unexpectedArgument"
    case .invalidRequestID: "invalidRequestID"
    case .notWholeNumber: "notWholeNumber"
    case .tooLarge: "tooLarge"
    case .notPositive: "notPositive"
    case .negative: "negative"
    case .unknownJuice: "unknownJuice"
    case .unknownFruit: "unknownFruit"
    case .ambiguousName: "ambiguousName"
    case .overflow: "overflow"
    case .outOfStock: "outOfStock"
    case .notEnoughStock: "outOfStock"
    case .stockChanged: "stockChanged"
    case .invalidPacks: "invalidPacks"
    case .invalidStrings: "invalidCatalog"
    case .validationFailed: "validationFailed"
    case .requestIDReused: "requestIDReused"
    case .store(let error): error.commandCode
    case .conservationBroken: "conservationBroken"
    case .alreadyReported: "alreadyReported"
    case .invalidListen: "invalidListen"
    case .tokenFileNeeded: "tokenFileNeeded"
    case .tokenFileMode: "tokenFileMode"
    case .invalidTokenFile: "invalidTokenFile"
    case .unreadableFile: "unreadableFile"
    case .optionNeeds: "optionNeeds"
    case .invalidOrigin: "invalidOrigin"
    case .cannotListen: "cannotListen"
    case .parBelowMinimum: "parBelowMinimum"
    case .invalidChoice: "invalidChoice"
    case .backupExists: "fileExists"
    case .restoreTargetExists: "storeExists"
    case .menuRefused: "menuRefused"
    case .menuChanged: "menuChanged"
    case .notPublished: "notPublished"
    case .notAPackOrCatalog: "notAPackOrCatalog"
    case .menuLayerUnsupported: "menuLayerUnsupported"
    }
  }

  /// The message in the user's language, names and inputs escaped for a terminal and any
  /// store URI they hold redacted (`Texts.shown`).
  func message(_ texts: Texts) -> String {
    let l = texts.localizer
    func s(_ text: String) -> LocalizedArgument { .string(texts.shown(text)) }
    switch self {
    case .unknownCommand(let name):
      return l.string("error.unknownCommand", s(name))
    case .unknownOption(let option):
      return l.string("error.unknownOption", s(option))
    case .unexpectedValue(let option):
      return l.string("error.unexpectedValue", s(option))
    case .missingValue(let option):
      return l.string("error.missingValue", s(option))
    case .emptyValue(let option):
      return l.string("error.emptyValue", s(option))
    case .optionNotApplicable(let option, let command):
      return l.string("error.optionNotApplicable", s(option), s(command))
    case .conflictingOptions(let first, let second):
      return l.string("error.conflictingOptions", s(first), s(second))
    case .invalidShopName(let name, let reason):
      return l.string(
        "error.invalidShopName." + reason.rawValue, s(name), .int(ShopName.maximumLength))
    case .invalidTime(let value, let option):
      return l.string("error.invalidTime", s(value), s(option))
    case .timeOutOfRange(let value, let option):
      return l.string(
        "error.timeOutOfRange", s(value), s(option), .string(TimeText.earliest),
        .string(TimeText.latest))
    case .signedNumber(let value, let option):
      return l.string("error.signedNumber", s(value), s(option))
    case .unsupportedStore(let address, let source, let reason):
      return l.string("error.unsupportedStore." + reason.rawValue, s(address), s(source))
    case .outputFailed(let failure, let changedStore):
      let message = l.string(
        "error.outputFailed." + failure.stream.rawValue, s(failure.reason))
      return changedStore ? message + " " + l.string("error.outputFailed.seeHistory") : message
    case .missingArgument(let argument, let command):
      return l.string("error.missingArgument", s(argument), s(command))
    case .unexpectedArgument(let argument, let command):
      return l.string("error.unexpectedArgument", s(argument), s(command))
    case .invalidRequestID(let value):
      return l.string("error.invalidRequestID", s(value))
    case .notWholeNumber(let value, let option):
      return l.string("error.notWholeNumber", s(value), s(option))
    case .tooLarge(let value, let option):
      return l.string("error.tooLarge", s(value), s(option))
    case .notPositive(let value, let option):
      return l.string("error.notPositive", s(value), s(option))
    case .negative(let value, let option):
      return l.string("error.negative", s(value), s(option))
    case .unknownJuice(let name):
      return l.string("error.unknownJuice", s(name))
    case .unknownFruit(let name):
      return l.string("error.unknownFruit", s(name))
    case .ambiguousName(let name, let candidates):
      return l.string(
        "error.ambiguousName", s(name), .string(l.list(candidates.map(texts.shown))))
    case .overflow(let fruit, let stock, let amount):
      return l.string(
        "error.overflow", .string(texts.name(of: fruit)), .int(stock), .int(amount))
    case .outOfStock(let shortages):
      return texts.shortageMessage(shortages)
    case .notEnoughStock(let shortage):
      return l.string(
        LocalizationKey.stockNotEnough,
        .string(texts.name(of: shortage.fruit, count: shortage.available)),
        .int(shortage.available), .int(shortage.needed))
    case .stockChanged(let fruit, let expected, let actual):
      return l.string(
        "error.stockChanged", .string(texts.name(of: fruit)), .int(expected), .int(actual))
    case .invalidPacks(let error):
      let lines = error.problems.map { "  " + $0.localized(texts) }
      return ([l.string("error.invalidPacks", .int(error.totalCount))] + lines)
        .joined(separator: "\n")
    case .invalidStrings(let error):
      return error.lines.map(texts.shown).joined(separator: "\n")
    case .validationFailed(let errors):
      return l.string("error.validationFailed", .int(errors))
    case .store(let error):
      let cause = error.cause
      let detail = cause.code.isEmpty ? cause.message : "\(cause.message) (\(cause.code))"
      switch error {
      case .invalid(let store, _):
        return l.string("error.invalidStore", s(store), s(detail))
      case .unavailable(let store, _):
        return l.string("error.storeUnavailable", s(store), s(detail))
      case .missing(let store, _):
        let command = s("juice-maker init --store " + ShellWord.quoted(store))
        return PostgresStockStorage.isConnectionURI(store)
          ? l.string("error.storeMissing.database", s(store), command)
          : l.string("error.storeMissing.file", s(store), s(detail), command)
      case .alreadyExists(let store, _):
        return l.string("error.storeExists", s(store))
      case .replaced(let store, _):
        return l.string("error.storeReplaced", s(store), s(detail))
      case .outcomeUnknown(let store, let id, _):
        return l.string("error.outcomeUnknown", s(store), s(id.rawValue), s(detail))
      }
    case .requestIDReused(let id, let firstUse):
      let action = firstUse.action
      let subject = action.juice?.rawValue ?? action.fruit?.rawValue ?? ""
      // A set's count is the level set, not a quantity.
      let isSet = if case .set = action { true } else { false }
      let amount = isSet ? "\(action.count)" : "×\(action.count)"
      return l.string(
        "error.requestIDReused", s(id.rawValue), s("\(action.name) \(subject) \(amount)"),
        s(firstUse.editor))
    case .conservationBroken(let detail):
      return l.string("error.conservationBroken", s(detail))
    case .alreadyReported:
      return ""
    case .invalidListen(let text):
      return l.string("error.invalidListen", s(text))
    case .tokenFileNeeded(let listen):
      return l.string("error.tokenFileNeeded", s(listen))
    case .tokenFileMode(let path, let mode):
      return l.string("error.tokenFileMode", s(path), s(mode))
    case .invalidTokenFile(let path, let line, let reason):
      return l.string(
        "error.invalidTokenFile." + reason.rawValue, s(path), .int(line),
        .int(TokenFile.minimumLength))
    case .unreadableFile(let path, let option, let reason):
      return l.string("error.unreadableFile", s(path), s(option), s(reason))
    case .optionNeeds(let option, let other):
      return l.string("error.optionNeeds", s(option), s(other))
    case .invalidOrigin(let origin):
      return l.string("error.invalidOrigin", s(origin))
    case .cannotListen(let address, let reason):
      return l.string("error.cannotListen", s(address), s(reason))
    case .parBelowMinimum(let minimum, let par):
      return l.string("error.parBelowMinimum", .int(par), .int(minimum))
    case .backupExists(let path):
      return l.string("error.backupExists", s(path))
    case .restoreTargetExists(let store):
      return l.string("error.restoreTargetExists", s(store))
    case .invalidChoice(let value, let option, let choices):
      return l.string(
        "error.invalidChoice", s(option), .string(choices.joined(separator: ", ")), s(value))
    case .menuRefused(let problems):
      return ([l.string("error.menuRefused", .int(problems.count))] + problems.map { "  " + $0 })
        .joined(separator: "\n")
    case .menuChanged(let store):
      return l.string("error.menuChanged", s(store))
    case .notPublished(let name, let store):
      return l.string("error.notPublished", s(name), s(store))
    case .notAPackOrCatalog(let path):
      return l.string("error.notAPackOrCatalog", s(path))
    case .menuLayerUnsupported(let store):
      return l.string("error.menuLayerUnsupported", s(store))
    }
  }
}

/// What is wrong with a shop name.
enum ShopNameProblem: String, Sendable, CaseIterable {
  /// Nothing but white space.
  case empty
  /// Longer than `ShopName.maximumLength` characters.
  case tooLong
  /// Holds a control character.
  case controlCharacter
  /// Holds a bidi control (U+202A–U+202E, U+2066–U+2069) or a zero-width character
  /// (U+200B–U+200D, U+2060, U+FEFF): text that shows as something it is not.
  case invisibleCharacter
}

extension CLIError {
  /// The error a store failure becomes: invalid data, a missing store and an
  /// existing one where `init` creates one exit 65, anything else 74. The message keeps
  /// the engine's words and code.
  init(_ error: StockStorageError) {
    self = .store(error)
  }

  /// The error a store's refusal or failure becomes.
  init(_ error: FruitStoreError) {
    switch error {
    case .unknownFruit(let fruit): self = .unknownFruit(fruit.rawValue)
    case .negativeQuantity(let value, _): self = .negative(value: String(value), option: "N")
    case .overflow(let fruit, let stock, let amount):
      self = .overflow(fruit: fruit, stock: stock, amount: amount)
    case .insufficientStock(let shortage): self = .notEnoughStock(shortage)
    case .stockChanged(let fruit, let expected, let actual):
      self = .stockChanged(fruit: fruit, expected: expected, actual: actual)
    case .requestIDReused(let id, let firstUse): self = .requestIDReused(id, firstUse: firstUse)
    case .storage(let cause): self.init(cause)
    }
  }
}

extension CLIError {
  /// The error with every password of `address` replaced by `***` in what it quotes: a
  /// connection's error may quote the URI it was given.
  func scrubbed(by address: StoreAddress) -> CLIError {
    guard case .store(let error) = self else { return self }
    let store = address.scrub(error.store)
    var cause = error.cause
    cause.message = address.scrub(cause.message)
    return switch error {
    case .invalid: .store(.invalid(store: store, cause: cause))
    case .unavailable: .store(.unavailable(store: store, cause: cause))
    case .missing: .store(.missing(store: store, cause: cause))
    case .alreadyExists: .store(.alreadyExists(store: store, cause: cause))
    case .replaced: .store(.replaced(store: store, cause: cause))
    case .outcomeUnknown(_, let id, _): .store(.outcomeUnknown(store: store, id: id, cause: cause))
    }
  }
}

// MARK: - Input and output problems

extension CatalogError.Problem {
  /// Whether the problem is one of reading, not of content: the command exits 74.
  var isInputOutput: Bool {
    if case .unreadable = reason { return true }
    return false
  }
}

extension CatalogError {
  /// How many problems there are, counting those a long report leaves unlisted.
  var totalCount: Int {
    problems.reduce(0) { total, problem in
      if case .moreProblems(let count) = problem.reason { return total + count }
      return total + 1
    }
  }
}

extension LocalizationError {
  /// Whether the problem is one of reading, not of content: the command exits 74.
  var isInputOutput: Bool {
    switch self {
    case .unreadableDirectory, .unreadableFile: true
    default: false
    }
  }
}

// MARK: - The store's errors at the command's edge

extension StockStorageError {
  /// The exit code of a store that failed: 65 for a store that is not what it should be
  /// (damaged, missing, already there), 74 for one that cannot be used now.
  var exitCode: ExitCode {
    switch self {
    case .invalid, .missing, .alreadyExists: .dataError
    case .unavailable, .outcomeUnknown, .replaced: .ioError
    }
  }

  /// The stable code `--json` gives the failure.
  var commandCode: String {
    switch self {
    case .invalid: "invalidStore"
    case .unavailable: "storeUnavailable"
    case .missing: "storeMissing"
    case .alreadyExists: "storeExists"
    case .replaced: "storeReplaced"
    case .outcomeUnknown: "outcomeUnknown"
    }
  }
}
