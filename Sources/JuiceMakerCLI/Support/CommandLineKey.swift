/// The keys of `Localization/CommandLine.xcstrings`: every word the command line
/// shows besides the shop's names and messages.
enum CommandLineKey {
  /// Every key, for `validate`.
  static let all: [String] =
    [
      "menu.makeable", "menu.ingredient", "stock.updated", "stock.changed", "shop.prompt",
      "shop.quit", "shop.bye",
      "shop.stock.help", "history.empty", "history.kind.order", "history.kind.add",
      "history.kind.remove", "history.kind.set", "history.outcome.done",
      "history.outcome.refused", "validate.summary", "validate.catalogSummary", "rush.report",
      "rush.shop", "rush.juice",
      "rush.stock", "rush.conserved",
      "error.unknownCommand", "error.unknownOption", "error.unexpectedValue", "error.missingValue",
      "error.emptyValue", "error.optionNotApplicable", "error.conflictingOptions",
      "error.missingArgument", "error.unexpectedArgument", "error.notWholeNumber",
      "error.tooLarge", "error.notPositive", "error.negative", "error.unknownJuice",
      "error.unknownFruit", "error.ambiguousName", "error.overflow", "error.invalidPacks",
      "error.validationFailed", "error.invalidStore", "error.storeUnavailable",
      "error.conservationBroken", "error.invalidRequestID",
    ] + Help.topics.map { "help." + $0 } + fullScreen

  /// The keys of the full-screen shop.
  static let fullScreen = [
    "tui.close", "tui.count", "tui.hint.dialog", "tui.hint.keys", "tui.hint.order",
    "tui.hint.stock", "tui.keys.choose", "tui.keys.close", "tui.keys.count", "tui.keys.order",
    "tui.keys.page", "tui.keys.quit", "tui.keys.step", "tui.keys.stock", "tui.keys.title",
    "tui.keys.type", "tui.quitTyped", "tui.status.order", "tui.status.stock",
    "tui.tooSmall", "tui.unavailable",
  ]
}
