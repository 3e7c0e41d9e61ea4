import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit
import Synchronization

/// Who may call what: the tokens of the token file, the sessions signed in with them,
/// and the origins allowed to send browser requests.
final class AccessControl: Sendable {
  /// The tokens and their roles; `nil` when the server has no token file and every
  /// request may do everything.
  private let tokens: [(token: [UInt8], roles: Set<AccessRole>)]?
  private let sessions = Mutex<[String: Session]>([:])
  /// Origins besides the server's own that may send browser requests.
  let allowedOrigins: Set<String>

  private struct Session {
    let roles: Set<AccessRole>
    let expires: ContinuousClock.Instant
  }

  private static let everyRole = Set(AccessRole.allCases)

  /// The name of the session cookie.
  static let cookieName = "juice_session"
  /// How long a session lasts.
  static let sessionLifetime: Duration = .seconds(12 * 3600)
  /// The most sessions kept; the oldest go first.
  static let maximumSessions = 10_000

  init(tokenFile: TokenFile?, allowedOrigins: Set<String>) {
    tokens = tokenFile?.entries.map { (Array($0.token.utf8), $0.roles) }
    self.allowedOrigins = allowedOrigins
  }

  /// Whether requests need a token.
  var isRequired: Bool { tokens != nil }

  /// The roles a request holds: every role without a token file; those of its bearer
  /// token or session cookie otherwise; `nil` when it has neither or they are not valid.
  func roles(of request: some HTTPHeaderLookup) -> Set<AccessRole>? {
    guard tokens != nil else { return Self.everyRole }
    if let authorization = request.header("authorization") {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
      return roles(ofToken: String(parts[1]).trimmingWhitespace())
    }
    if let session = Self.cookie(Self.cookieName, in: request.header("cookie")) {
      let now = ContinuousClock.now
      return sessions.withLock { sessions in
        guard let found = sessions[session], found.expires > now else { return nil }
        return found.roles
      }
    }
    return nil
  }

  /// The roles of a token, compared in constant time against every token of the file.
  func roles(ofToken token: String) -> Set<AccessRole>? {
    guard let tokens else { return Self.everyRole }
    let given = Array(token.utf8)
    var found: Set<AccessRole>?
    for entry in tokens where Self.constantTimeEqual(given, entry.token) {
      found = entry.roles
    }
    return found
  }

  /// Starts a session for a token's roles.
  ///
  /// - Returns: The session id for the cookie.
  func startSession(roles: Set<AccessRole>) -> String {
    let id = (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    let expires = ContinuousClock.now + Self.sessionLifetime
    sessions.withLock { sessions in
      if sessions.count >= Self.maximumSessions {
        let now = ContinuousClock.now
        sessions = sessions.filter { $0.value.expires > now }
        if sessions.count >= Self.maximumSessions,
          let oldest = sessions.min(by: { $0.value.expires < $1.value.expires })
        {
          sessions.removeValue(forKey: oldest.key)
        }
      }
      sessions[id] = Session(roles: roles, expires: expires)
    }
    return id
  }

  /// Ends the session of a request's cookie, if any.
  func endSession(of request: some HTTPHeaderLookup) {
    guard let session = Self.cookie(Self.cookieName, in: request.header("cookie")) else { return }
    sessions.withLock { _ = $0.removeValue(forKey: session) }
  }

  /// A cookie's value in a `Cookie` header.
  static func cookie(_ name: String, in header: String?) -> String? {
    guard let header else { return nil }
    for pair in header.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingWhitespace() == name {
        return parts[1].trimmingWhitespace()
      }
    }
    return nil
  }

  /// Compares two byte strings in time that depends on their lengths only.
  static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
    let length = max(left.count, right.count)
    for index in 0..<length {
      let a = index < left.count ? left[index] : 0
      let b = index < right.count ? right[index] : 0
      difference |= a ^ b
    }
    return difference == 0 && left.count == right.count
  }
}

/// Something with header fields: a request.
protocol HTTPHeaderLookup {
  func header(_ name: String) -> String?
}
