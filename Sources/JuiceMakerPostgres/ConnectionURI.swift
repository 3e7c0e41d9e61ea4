import CLibPQ

/// A libpq connection URI, with the form of it that is safe to show.
///
/// `postgresql://shop:secret@db.example.com/juice?sslmode=require` is shown as
/// `postgresql://shop:***@db.example.com/juice?sslmode=require`; a `password`
/// query parameter is shown as `password=***`. Every message the storage passes
/// on goes through `scrub(_:)`, which replaces the password wherever it appears.
struct ConnectionURI: Hashable, Sendable {
  /// The URI as given, handed to libpq only.
  let text: String
  /// The URI with its passwords replaced by `***`.
  let redacted: String
  /// The passwords the URI holds, as written and percent-decoded.
  private let secrets: [String]

  /// The URI schemes libpq accepts.
  static let schemes = ["postgresql://", "postgres://"]

  /// Whether `text` is a PostgreSQL connection URI rather than a file path.
  static func isURI(_ text: String) -> Bool {
    let lowercased = text.prefix(13).lowercased()
    return schemes.contains { lowercased.hasPrefix($0) }
  }

  /// Splits `text` into its parts to redact; any text is accepted, libpq judges
  /// whether it is a valid URI.
  init(_ text: String) {
    self.text = text
    var secrets: [String] = []
    let scheme = Self.schemes.first { text.lowercased().hasPrefix($0) } ?? ""
    let rest = text.dropFirst(scheme.count)
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    var authority = String(rest[..<authorityEnd])
    if let at = authority.lastIndex(of: "@") {
      let userInfo = authority[..<at]
      if let colon = userInfo.firstIndex(of: ":") {
        secrets.append(String(userInfo[userInfo.index(after: colon)...]))
        authority = String(userInfo[...colon]) + "***" + String(authority[at...])
      }
    }
    var tail = String(rest[authorityEnd...])
    if let question = tail.firstIndex(of: "?") {
      let path = tail[..<question]
      let query = tail[tail.index(after: question)...]
      let parameters = query.split(separator: "&", omittingEmptySubsequences: false).map {
        parameter -> String in
        guard let equals = parameter.firstIndex(of: "="),
          parameter[..<equals].lowercased() == "password"
        else { return String(parameter) }
        secrets.append(String(parameter[parameter.index(after: equals)...]))
        return String(parameter[...equals]) + "***"
      }
      tail = String(path) + "?" + parameters.joined(separator: "&")
    }
    self.redacted = String(text.prefix(scheme.count)) + authority + tail
    var all: [String] = []
    for secret in secrets where !secret.isEmpty {
      all.append(secret)
      if let decoded = Self.percentDecoded(secret), decoded != secret, !decoded.isEmpty {
        all.append(decoded)
      }
    }
    // Longest first, so that a password containing another is replaced whole.
    self.secrets = all.sorted { $0.count > $1.count }
  }

  /// Why libpq cannot read the URI, or `nil` when it can.
  var problem: String? {
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
  func scrub(_ message: String) -> String {
    var message = message
    for secret in secrets {
      message = message.replacing(secret, with: "***")
    }
    return message
  }

  private static func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
