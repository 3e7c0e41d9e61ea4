import JuiceMakerPostgres

/// Where the store is, as `--store` or `JUICE_MAKER_STORE` gives it: a SQLite file path
/// or a PostgreSQL connection URI, never shown with its passwords.
///
/// Every place that shows a store (messages, usage errors, `--json`, `rush`) shows
/// ``shown``, which `ConnectionURI` redacts; the raw text goes to the storage only.
struct StoreAddress: Sendable, Equatable {
  /// The address as given, for the storage only.
  let text: String
  /// The address safe to show: a URI's passwords replaced by `***`.
  let shown: String
  /// Whether it is a PostgreSQL URI rather than a file path.
  let isURI: Bool

  /// Reads an address.
  ///
  /// A path is a path: SQLite's own `file:` URIs and its `:memory:` name are refused, so
  /// the store is always the file the path names (write `./file:x` for a file of that
  /// name). A PostgreSQL URI that libpq would split elsewhere than its writer meant (an
  /// `@` in a password not written `%40`) is refused before libpq sees it.
  ///
  /// - Parameters:
  ///   - text: The address as given.
  ///   - source: Where it came from, as messages name it (`--store`, `JUICE_MAKER_STORE`).
  /// - Throws: `CLIError.unsupportedStore` naming the address and what is wrong.
  init(_ text: String, from source: String) throws(CLIError) {
    self.text = text
    isURI = ConnectionURI.isURI(text)
    if isURI {
      let uri = ConnectionURI(text)
      shown = uri.redacted
      if uri.isAmbiguous {
        throw .unsupportedStore(shown, source: source, reason: .ambiguousUserInfo)
      }
      return
    }
    shown = text
    if text.prefix(5).lowercased() == "file:" {
      throw .unsupportedStore(text, source: source, reason: .sqliteURI)
    }
    if text == ":memory:" {
      throw .unsupportedStore(text, source: source, reason: .memory)
    }
  }

  /// An address known to be a plain path: the default store file.
  init(defaultPath path: String) {
    text = path
    shown = path
    isURI = false
  }

  /// `text` with this address's passwords replaced by `***`: for messages that may quote
  /// it, such as a connection's error.
  func scrub(_ text: String) -> String {
    isURI ? ConnectionURI(self.text).scrub(text) : text
  }
}

/// What is wrong with a store address.
enum StoreAddressProblem: String, Sendable, CaseIterable {
  /// A SQLite `file:` URI.
  case sqliteURI
  /// SQLite's `:memory:`, which keeps nothing.
  case memory
  /// A PostgreSQL URI with more than one `@` before its path, or a `?` before its `@`.
  case ambiguousUserInfo
}
