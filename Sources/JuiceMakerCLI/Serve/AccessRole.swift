/// What a token may do.
///
/// A token file line holding only a token grants every role.
enum AccessRole: String, Sendable, CaseIterable {
  /// The counter: the menu, the stock, orders, the event stream and the page's words.
  case counter
  /// The staff: everything the counter does, and stock edits and the history.
  case staff
}
