import Foundation
import Testing

/// Tokens, token files and certificates for servers under test.
enum ServeFixtures {
  /// A token with every role.
  static let ownerToken = "owner-token-0123456789abcdef"
  /// A token with the staff role only.
  static let staffToken = "staff-token-0123456789abcdef"
  /// A token with the counter role only.
  static let counterToken = "counter-token-0123456789abcdef"

  /// The token file's lines for the three tokens above, with a comment and a blank line.
  static let tokenLines = """
    # tokens of the test shop

    \(ownerToken)
    \(staffToken) staff
    \(counterToken) counter
    """

  /// Writes a token file into the sandbox.
  ///
  /// - Parameters:
  ///   - contents: The file's text.
  ///   - mode: Its permission bits.
  /// - Returns: Its path.
  static func tokenFile(
    in sandbox: Sandbox, contents: String = tokenLines, mode: Int = 0o600,
    name: String = "tokens"
  ) throws -> String {
    let path = sandbox.path(name)
    try Data((contents + "\n").utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    return path
  }

  /// The `openssl` executable on `PATH`, if any.
  static let openssl = executable("openssl")
  /// The `curl` executable on `PATH`, if any.
  static let curl = executable("curl")

  /// Whether a missing component fails the tests instead of skipping them: under `CI=true`.
  static let required = ProcessInfo.processInfo.environment["CI"] == "true"

  private static func executable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { $0 + "/" + name }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Makes a self-signed certificate for `localhost` and `127.0.0.1` valid for a day.
  ///
  /// - Returns: The paths of the certificate and its key, PEM.
  static func certificate(in sandbox: Sandbox) async throws -> (certificate: String, key: String) {
    let openssl = try #require(
      openssl, "openssl is not installed; the TLS tests need it (apt-get install openssl)")
    let certificate = sandbox.path("cert.pem")
    let key = sandbox.path("key.pem")
    let outcome = try await sandbox.run(
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out",
        certificate,
      ], useStore: false, binary: URL(fileURLWithPath: openssl))
    try #require(outcome.status == 0, "openssl req: \(outcome)")
    return (certificate, key)
  }
}
