import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit

/// The options every command takes, typed.
struct GlobalOptions: Sendable {
  static let recipes = Option.text(
    "recipes", "DIR", completion: .directory, environment: "JUICE_MAKER_RECIPES")
  static let localization = Option.text(
    "localization", "DIR", completion: .directory, environment: "JUICE_MAKER_LOCALIZATION")
  static let store = Option<StoreAddress>(
    spec: OptionSpec(
      name: "store", metavariable: "FILE", completion: .file,
      environmentVariable: "JUICE_MAKER_STORE"),
    convert: { text throws(CLIError) in try StoreAddress(text, from: "--store") })
  static let lang = Option.text(
    "lang", "LANG", completion: .language, environment: "JUICE_MAKER_LANG")
  static let shop = Option<String>(
    spec: OptionSpec(name: "shop", metavariable: "NAME"),
    convert: { text throws(CLIError) in try ShopName.validated(text) })
  static let json = Flag("json")
  static let help = Flag("help", shortName: "h")
  static let version = Flag("version")

  /// Every global option, in the order help lists them.
  static let all: [OptionSpec] = [
    recipes.spec, localization.spec, store.spec, lang.spec, shop.spec, json.spec, help.spec,
    version.spec,
  ]

  /// `--recipes`, else `JUICE_MAKER_RECIPES`.
  var recipes: String?
  /// `--localization`, else `JUICE_MAKER_LOCALIZATION`.
  var localization: String?
  /// `--store` as given on the command line.
  var store: StoreAddress?
  /// `JUICE_MAKER_STORE`.
  var storeVariable: StoreAddress?
  /// `--lang`.
  var lang: String?
  /// `--shop`, checked; `main` when not given.
  var shop: String
  /// Whether `--shop` was given.
  var shopGiven: Bool
  var json: Bool
  var help: Bool
  var version: Bool

  /// Reads the global options, with their environment variables where they have one.
  ///
  /// - Throws: `CLIError.emptyValue` naming an empty `JUICE_MAKER_*` variable, as an empty
  ///   option is; `CLIError.invalidShopName` for a bad `--shop`.
  init(_ line: ParsedCommandLine, configuration: Configuration) throws(CLIError) {
    // Every variable is checked, even one an option overrides: an empty one is a mistake.
    var variables: [String: String] = [:]
    for spec in Self.all {
      if let value = try configuration.value(for: spec) { variables[spec.name] = value }
    }
    recipes = try line.value(Self.recipes) ?? variables["recipes"]
    localization = try line.value(Self.localization) ?? variables["localization"]
    store = try line.value(Self.store)
    storeVariable = try variables["store"].map { text throws(CLIError) in
      try StoreAddress(text, from: "JUICE_MAKER_STORE")
    }
    lang = try line.value(Self.lang)
    let givenShop = try line.value(Self.shop)
    shop = givenShop ?? "main"
    shopGiven = givenShop != nil
    json = line.isSet(Self.json)
    help = line.isSet(Self.help)
    version = line.isSet(Self.version)
  }
}

/// The rules for a shop's name, the name the journal records.
enum ShopName {
  /// The longest name, in characters.
  static let maximumLength = 64

  /// A name as given, trimmed of white space, checked and in Unicode normalization form
  /// C, so a name typed in decomposed form (as macOS file names hold Hangul) is the same
  /// shop in the journal and in `history --shop`.
  ///
  /// - Returns: The trimmed name, normalized.
  /// - Throws: `CLIError.invalidShopName` when it is empty once trimmed, longer than
  ///   ``maximumLength`` characters, holds a control character, or holds a bidi control
  ///   or zero-width character that would make it look like another text.
  static func validated(_ text: String) throws(CLIError) -> String {
    let trimmed = text.trimmingWhitespaceAndNewlines()
      .canonicallyComposed
    if trimmed.isEmpty { throw .invalidShopName(text, reason: .empty) }
    if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .invalidShopName(text, reason: .controlCharacter)
    }
    if trimmed.unicodeScalars.contains(where: \.isDeceptiveFormatting) {
      throw .invalidShopName(text, reason: .invisibleCharacter)
    }
    if trimmed.count > maximumLength { throw .invalidShopName(text, reason: .tooLong) }
    return trimmed
  }
}
