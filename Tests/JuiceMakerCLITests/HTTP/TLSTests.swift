import Foundation
import Testing

extension HTTPTests {
  /// `--tls-cert` and `--tls-key`: HTTPS with a self-signed certificate, talked to with
  /// `curl --cacert`. Under `CI=true` a missing `openssl` or `curl` fails the tests.
  @Suite(
    .enabled(
      if: (ServeFixtures.openssl != nil && ServeFixtures.curl != nil) || ServeFixtures.required))
  struct TLSTests {
    /// Sends a request with `curl`, trusting only the certificate.
    static func curl(
      _ url: String, certificate: String, in sandbox: Sandbox, method: String = "GET",
      headers: [String] = [], body: String? = nil
    ) async throws -> ServerResponse {
      let curl = try #require(
        ServeFixtures.curl, "curl is not installed; the TLS tests need it (apt-get install curl)")
      let name = UUID().uuidString
      let head = sandbox.path("\(name).head")
      let bodyFile = sandbox.path("\(name).body")
      var arguments = [
        "--silent", "--show-error", "--max-time", "20", "--cacert", certificate, "--dump-header",
        head, "--output", bodyFile, "--request", method,
      ]
      for header in headers { arguments += ["--header", header] }
      if let body { arguments += ["--data-binary", body] }
      arguments.append(url)
      let outcome = try await sandbox.run(
        arguments, useStore: false, binary: URL(fileURLWithPath: curl))
      try #require(outcome.status == 0, "curl \(url): \(outcome)")
      let lines = try String(contentsOfFile: head, encoding: .utf8)
        .split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
      let statusLine = try #require(lines.last { $0.hasPrefix("HTTP/") })
      let status = try #require(Int(statusLine.split(separator: " ")[1]))
      let start = try #require(lines.lastIndex(of: statusLine))
      let fields = lines[(start + 1)...].compactMap { line -> ServerResponse.Field? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return .init(
          name: String(line[..<colon]),
          value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
      }
      let received = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
      return ServerResponse(status: status, headers: fields, body: Array(received))
    }

    @Test func httpsServesWithTheCertificateAndTheOriginSaysSo() async throws {
      let sandbox = try Sandbox()
      let (certificate, key) = try await ServeFixtures.certificate(in: sandbox)
      let server = try await ServeProcess(
        ["--tls-cert", certificate, "--tls-key", key], in: sandbox)
      #expect(server.originLine == "https://127.0.0.1:\(server.port)/")
      let url = "https://localhost:\(server.port)"
      let health = try await Self.curl(url + "/healthz", certificate: certificate, in: sandbox)
      #expect(try expectJSON(health, status: 200) == ["status": "ok", "menu": ["version": 0]])
      let order = try await Self.curl(
        url + "/api/v1/orders", certificate: certificate, in: sandbox, method: "POST",
        headers: ["Content-Type: application/json"], body: #"{"juice":"banana-juice"}"#)
      #expect(try expectJSON(order, status: 201)["juice"] == "banana-juice")
      #expect(try await sandbox.stock()["banana"] == 8)
    }

    @Test func theSessionCookieIsSecureUnderTLS() async throws {
      let sandbox = try Sandbox()
      let (certificate, key) = try await ServeFixtures.certificate(in: sandbox)
      let tokens = try ServeFixtures.tokenFile(in: sandbox)
      let server = try await ServeProcess(
        ["--tls-cert", certificate, "--tls-key", key, "--token-file", tokens], in: sandbox)
      let response = try await Self.curl(
        "https://localhost:\(server.port)/api/v1/session", certificate: certificate, in: sandbox,
        method: "POST", headers: ["Content-Type: application/json"],
        body: #"{"token":"\#(ServeFixtures.staffToken)"}"#)
      #expect(response.status == 204, "\(response)")
      let cookie = try #require(response.header("Set-Cookie"), "\(response)")
      let attributes = cookie.split(separator: ";").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      #expect(attributes.contains("secure"), "\(cookie)")
      #expect(attributes.contains("httponly"), "\(cookie)")
      #expect(attributes.contains("samesite=strict"), "\(cookie)")
    }

    @Test func plainHTTPToTheTLSPortGetsNoAnswerAndTheServerGoesOn() async throws {
      let sandbox = try Sandbox()
      let (certificate, key) = try await ServeFixtures.certificate(in: sandbox)
      let server = try await ServeProcess(
        ["--tls-cert", certificate, "--tls-key", key], in: sandbox)
      let connection = try server.connect()
      let answered = try? await connection.exchange("GET", "/healthz", timeout: .seconds(5))
      #expect(answered?.status != 200, "\(String(describing: answered))")
      let health = try await Self.curl(
        "https://localhost:\(server.port)/healthz", certificate: certificate, in: sandbox)
      #expect(health.status == 200, "\(health)")
    }

    @Test func aCertificateWithoutAKeyIsRefused() async throws {
      let sandbox = try Sandbox()
      let (certificate, _) = try await ServeFixtures.certificate(in: sandbox)
      let outcome = try await ServeProcess.refusal(["--tls-cert", certificate], in: sandbox)
      #expect(outcome.status == 64, "\(outcome)")
      let unreadable = try await ServeProcess.refusal(
        ["--tls-cert", certificate, "--tls-key", sandbox.path("missing.pem")], in: sandbox)
      #expect(unreadable.status != 0 && unreadable.status < 128, "\(unreadable)")
      #expect(unreadable.stdout.isEmpty, "\(unreadable)")
    }
  }
}
