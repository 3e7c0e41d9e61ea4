import CLibPQ
import JuiceMakerCatalog

/// A libpq connection URI, with the form of it that is safe to show.
///
/// `postgresql://shop:secret@db.example.com/juice?sslmode=require` is shown as
/// `postgresql://shop:***@db.example.com/juice?sslmode=require`; a `password` or
/// `sslpassword` query parameter is shown as `password=***`. Every message the storage
/// passes on goes through `scrub(_:)`, which replaces the passwords wherever they appear.
///
/// The user info is split where libpq splits it: at the first `@` before the first `/`
/// (a `?` does not end the search), and the password runs from the first `:` of the user
/// info to that `@`. A URI with more than one `@` there, or with a `?` before its `@`, is
/// one libpq reads differently from what its writer most likely meant (an `@` in a
/// password that should have been `%40`): ``isAmbiguous`` tells, and all of it but the
/// scheme is hidden.
package struct ConnectionURI: Hashable, Sendable {
  /// The URI as given, handed to libpq only.
  let text: String
  /// The URI with its passwords replaced by `***`.
  package let redacted: String
  /// Whether libpq would split the user info elsewhere than a reader would: more than one
  /// `@` before the first `/`, or a `?` before the `@`.
  package let isAmbiguous: Bool
  /// The passwords the URI holds, as written, percent-decoded, and as libpq reads them.
  private let secrets: [String]

  /// The URI schemes libpq accepts.
  static let schemes = ["postgresql://", "postgres://"]

  /// The query parameters that hold a secret.
  static let secretParameters: Set<String> = ["password", "sslpassword"]

  /// Whether `text` is a PostgreSQL connection URI rather than a file path.
  package static func isURI(_ text: String) -> Bool {
    let lowercased = text.prefix(13).lowercased()
    return schemes.contains { lowercased.hasPrefix($0) }
  }

  /// Splits `text` into its parts to redact; any text is accepted, libpq judges
  /// whether it is a valid URI.
  package init(_ text: String) {
    self.text = text
    var secrets: [String] = []
    let scheme = Self.schemes.first { text.lowercased().hasPrefix($0) } ?? ""
    let rest = text.dropFirst(scheme.count)
    // libpq looks for the user info up to the first `/`, past any `?`.
    let authority = rest.prefix { $0 != "/" }
    let ats = authority.indices.filter { authority[$0] == "@" }
    var shown = String(text.prefix(scheme.count))
    var remainder = rest
    if let firstAt = ats.first, let lastAt = ats.last {
      let userInfo = rest[..<firstAt]
      isAmbiguous = ats.count > 1 || userInfo.contains("?")
      if isAmbiguous {
        // No reading can be trusted to find the password: all of it is hidden.
        secrets.append(contentsOf: rest[..<lastAt].split(separator: "@").map(String.init))
        secrets.append(String(rest[..<lastAt]))
        secrets.append(String(rest))
        self.redacted = shown + "***"
        self.secrets = Self.ordered(secrets + Self.secretsAsLibpqReadsThem(text))
        return
      } else if let colon = userInfo.firstIndex(of: ":") {
        secrets.append(String(userInfo[userInfo.index(after: colon)...]))
        shown += String(userInfo[...colon]) + "***"
        remainder = rest[firstAt...]
      }
    } else {
      isAmbiguous = false
    }
    if let question = remainder.firstIndex(of: "?") {
      shown += String(remainder[..<question]) + "?"
      let query = remainder[remainder.index(after: question)...]
      let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map {
        parameter -> String in
        guard let equals = parameter.firstIndex(of: "="),
          let key = Self.percentDecoded(String(parameter[..<equals])),
          Self.secretParameters.contains(key.lowercased())
        else { return String(parameter) }
        secrets.append(String(parameter[parameter.index(after: equals)...]))
        return String(parameter[...equals]) + "***"
      }
      shown += parameters.joined(separator: "&")
    } else {
      shown += remainder
    }
    self.redacted = shown
    self.secrets = Self.ordered(secrets + Self.secretsAsLibpqReadsThem(text))
  }

  /// The secrets, each also percent-decoded, longest first, so that a password
  /// containing another is replaced whole.
  private static func ordered(_ secrets: [String]) -> [String] {
    var all: Set<String> = []
    for secret in secrets where !secret.isEmpty {
      all.insert(secret)
      if let decoded = percentDecoded(secret), !decoded.isEmpty {
        all.insert(decoded)
      }
    }
    return all.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
  }

  /// Why libpq cannot read the URI, or `nil` when it can.
  var problem: String? {
    // Without libpq the URI cannot be judged; connecting says why.
    guard Connection.libraryProblem() == nil else { return nil }
    var error: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(text, &error) else {
      defer { if let error { PQfreemem(error) } }
      let message = error.map { String(cString: $0) } ?? "libpq cannot read it"
      return scrub(Connection.trimmed(message))
    }
    PQconninfoFree(options)
    return nil
  }

  /// `message` with every password of the URI replaced by `***`.
  package func scrub(_ message: String) -> String {
    var message = message
    for secret in secrets {
      message = message.replacing(secret, with: "***")
    }
    return message
  }

  /// `text` with every PostgreSQL URI in it redacted, each read from its scheme to the
  /// next white space, quotation mark or scheme: how a message quotes one.
  ///
  /// ```swift
  /// ConnectionURI.redactingURIs(in: "--store “postgresql://u:pw@h/d” twice")
  /// // --store “postgresql://u:***@h/d” twice
  /// ```
  ///
  /// A URI with raw white space in its password is cut there; `scrub(_:ofEveryURIIn:)`
  /// with the URI as given catches the rest.
  ///
  /// - Complexity: O(*n*) for text of *n* bytes without `://`.
  package static func redactingURIs(in text: String) -> String {
    guard mayHoldURI(text) else { return text }
    var result = ""
    var rest = Substring(text)
    while let start = firstURI(in: rest) {
      result += rest[..<start]
      let afterScheme = rest.index(start, offsetBy: 11)
      let end =
        rest[afterScheme...].firstIndex { $0.isWhitespace || uriEnds.contains($0) }
        ?? rest.endIndex
      let next = firstURI(in: rest[afterScheme..<end]) ?? end
      result += ConnectionURI(String(rest[start..<next])).redacted
      rest = rest[next...]
    }
    return result + rest
  }

  /// The characters that end a URI a message quotes.
  private static let uriEnds: Set<Character> = ["“", "”", "\"", "'", "«", "»", "「", "」"]

  /// Where the first URI of `text` starts.
  private static func firstURI(in text: Substring) -> Substring.Index? {
    text.indices.first { index in
      (text[index] == "p" || text[index] == "P") && isURI(String(text[index...].prefix(13)))
    }
  }

  /// `message` with the passwords of every PostgreSQL URI in `texts` replaced by `***`:
  /// the last line of defence for a message that quotes a URI in another form than it
  /// was given (a path made absolute and standardized, `postgresql:/u:pw@h`).
  ///
  /// - Complexity: O(*n*) for texts of *n* bytes without `://`.
  package static func scrub(_ message: String, ofEveryURIIn texts: [String]) -> String {
    var message = message
    for text in texts where mayHoldURI(text) {
      for uri in uris(in: text) {
        message = uri.scrub(message)
      }
    }
    return message
  }

  /// Every URI in `text`, each read from its scheme to the next scheme or the end.
  private static func uris(in text: String) -> [ConnectionURI] {
    var uris: [ConnectionURI] = []
    var rest = Substring(text)
    while let start = firstURI(in: rest) {
      let afterScheme = rest.index(start, offsetBy: 11)
      let next = firstURI(in: rest[afterScheme...]) ?? rest.endIndex
      uris.append(ConnectionURI(String(rest[start..<next])))
      rest = rest[next...]
    }
    return uris
  }

  /// Whether `text` holds `://` at all, checked without allocating.
  private static func mayHoldURI(_ text: String) -> Bool {
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in text.utf8 {
      if previous == (UInt8(ascii: ":"), UInt8(ascii: "/")) && byte == UInt8(ascii: "/") {
        return true
      }
      previous = (previous.1, byte)
    }
    return false
  }

  /// The passwords libpq itself reads from the URI, when it can read it.
  private static func secretsAsLibpqReadsThem(_ text: String) -> [String] {
    guard let options = PQconninfoParse(text, nil) else { return [] }
    defer { PQconninfoFree(options) }
    var secrets: [String] = []
    var option = options
    while let keyword = option.pointee.keyword {
      if secretParameters.contains(String(cString: keyword)), let value = option.pointee.val {
        secrets.append(String(cString: value))
      }
      option += 1
    }
    return secrets
  }

  private static func percentDecoded(_ text: String) -> String? {
    PercentEncoding.decoded(text)
  }
}
