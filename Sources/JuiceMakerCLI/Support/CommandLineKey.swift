import JuiceMakerKit

/// The keys of `Localization/CommandLine.xcstrings` that `validate` requires: those of the
/// command definitions (help, command lines, options) and those the code names.
enum CommandLineKey {
  /// Every key the command line needs.
  static var all: [String] {
    let definitions = Commands.all.map { $0.definition }
    let model =
      definitions.flatMap { [$0.helpKey] + $0.forms.map(\.key) + $0.options.map(\.helpKey) }
      + GlobalOptions.all.map(\.helpKey)
    return model + named
  }

  /// The keys the code names besides those of the definitions.
  private static let named: [String] =
    [
      "help.title", "help.usage", "help.placeholder.options", "help.placeholder.command",
      "help.placeholder.arguments", "help.commands", "help.options", "help.globalHint",
      "help.footer", "menu.makeable", "menu.ingredient", "stock.updated", "stock.changed",
      "shop.prompt",
      "shop.quit", "shop.bye", "shop.stock.help", "shop.order.help", "shop.order.unknown",
      "shop.stock.unknownFruit", "shop.stock.unknownCommand", "shop.stock.missingQuantity",
      "shop.stock.missingFruit", "shop.stock.badQuantity", "shop.stock.units", "shop.answer.yes",
      "shop.answer.no",
      "shop.answer.prompt", "shop.answer.unknown", "history.empty", "history.outcome.done",
      "history.outcome.refused", "history.outcome.conflict", "error.stockChanged",
      "validate.summary", "validate.catalogSummary", "rush.report", "rush.shop", "rush.juice",
      "rush.stock", "rush.short", "rush.conserved", "rush.store.memory", "rush.store.file",
      "version.data",
      "packs.recipes", "packs.catalogs", "packs.replaces", "text.cut",
      "validate.duplicateJuiceName",
      "validate.duplicateFruitName", "validate.juiceNameIsID", "validate.fruitNameIsID",
      "error.unknownCommand", "error.unknownOption", "error.unexpectedValue", "error.missingValue",
      "error.emptyValue", "error.optionNotApplicable", "error.conflictingOptions",
      "error.missingArgument", "error.unexpectedArgument", "error.notWholeNumber",
      "error.tooLarge", "error.notPositive", "error.negative", "error.unknownJuice",
      "error.unknownFruit", "error.ambiguousName", "error.overflow", "error.invalidPacks",
      "error.validationFailed", "error.invalidStore", "error.storeUnavailable",
      "error.storeReplaced", "shop.health.replaced",
      "error.conservationBroken", "error.invalidTime", "error.invalidRequestID",
      "error.timeOutOfRange", "error.signedNumber", "error.outputFailed.standardOutput",
      "error.outputFailed.standardError", "error.outputFailed.seeHistory", "history.noMatch",
      "history.conflict", "warning.skippedPack", "warning.skippedCatalog",
      "packs.store.version", "packs.store.empty", "packs.published", "packs.retired",
      "error.menuRefused", "error.menuChanged", "error.notPublished", "error.notAPackOrCatalog",
      "error.menuLayerUnsupported", "shop.menu.changed", "shop.menu.broken", "serve.menu.changed",
    ]
    + StockAction.allCases.map { "history.kind." + $0.rawValue } + ["history.kind.order"]
    + DataLayers.Layer.allCases.map { "packs.layer." + $0.rawValue }
    + CatalogError.Reason.keys + LocalizationIssue.keys
    + ShopNameProblem.allCases.map { "error.invalidShopName." + $0.rawValue }
    + StoreAddressProblem.allCases.map { "error.unsupportedStore." + $0.rawValue }
    + fullScreen

  /// The keys of the full-screen shop.
  static let fullScreen = [
    "tui.close", "tui.count", "tui.hint.dialog", "tui.hint.keys", "tui.hint.order",
    "tui.hint.stock", "tui.keys.choose", "tui.keys.close", "tui.keys.count", "tui.keys.order",
    "tui.keys.page", "tui.keys.quit", "tui.keys.step", "tui.keys.stock", "tui.keys.title",
    "tui.keys.type", "tui.quitTyped", "tui.status.order", "tui.status.stock",
    "tui.tooSmall", "tui.unavailable",
  ]
}
