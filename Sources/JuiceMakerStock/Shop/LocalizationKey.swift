import JuiceMakerLocalization

/// The keys of the shipped catalog, `Localization/Localizable.xcstrings`.
///
/// Names are `fruit.<id>` and `juice.<id>`; packs add their own in their own catalog files.
/// ``messages`` lists every other key the program uses, for
/// ``StringCatalog/validationIssues(fruitIDs:juiceIDs:requiredKeys:)``.
package enum LocalizationKey {
  /// `order.made`: arg 1 the juice name.
  package static let orderMade = "order.made"
  /// `order.made.many`: arg 1 the juice name, arg 2 the count.
  package static let orderMadeMany = "order.made.many"
  /// `order.outOfStock`: asks whether to edit the stock.
  package static let orderOutOfStock = "order.outOfStock"
  /// `order.shortage`: arg 1 the fruit name for the missing count, arg 2 the missing count.
  package static let orderShortage = "order.shortage"
  /// `order.shortages`: arg 1 the shortages joined with ``listSeparator``.
  package static let orderShortages = "order.shortages"
  /// `list.separator`: between items of a list, such as `, `; ``Localizer/list(_:)`` reads it.
  package static let listSeparator = Localizer.listSeparatorKey
  /// `stock.notEnough`: arg 1 the fruit name, arg 2 the count available, arg 3 the count asked.
  package static let stockNotEnough = "stock.notEnough"
  /// `screen.order.title`: the title of the order screen.
  package static let orderScreenTitle = "screen.order.title"
  /// `screen.stock.title`: the title of the stock screen.
  package static let stockScreenTitle = "screen.stock.title"
  /// `button.close`: the close button.
  package static let closeButton = "button.close"
  /// `button.editStock`: the button that opens the stock screen.
  package static let editStockButton = "button.editStock"
  /// `answer.yes`: yes to a question.
  package static let yes = "answer.yes"
  /// `answer.no`: no to a question.
  package static let no = "answer.no"

  /// Every message key above, the ones the program uses besides names.
  package static let messages: [String] = [
    orderMade, orderMadeMany, orderOutOfStock, orderShortage, orderShortages, listSeparator,
    stockNotEnough, orderScreenTitle, stockScreenTitle, closeButton, editStockButton, yes, no,
  ]

  /// The prefixes of the names' keys: a catalog key with one that no pack uses is an unused
  /// name.
  package static let namePrefixes = ["fruit.", juicePrefix]

  /// The prefix of the juices' names' keys.
  package static let juicePrefix = "juice."

  /// The key of a fruit's name: `fruit("kiwi")` is `fruit.kiwi`.
  ///
  /// - Parameter id: The fruit's id.
  /// - Returns: The key.
  package static func fruit(_ id: String) -> String {
    "fruit." + id
  }

  /// The key of a juice's name: `juice("kiwi-juice")` is `juice.kiwi-juice`.
  ///
  /// - Parameter id: The juice's id.
  /// - Returns: The key.
  package static func juice(_ id: String) -> String {
    juicePrefix + id
  }
}
