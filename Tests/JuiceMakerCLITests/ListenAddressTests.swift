import Testing

@testable import JuiceMakerCLI

/// How `serve --listen` is read, and which addresses count as this machine only.
struct ListenAddressTests {
  @Test(arguments: [
    ("127.0.0.1:8080", "127.0.0.1", 8080, true),
    ("127.0.0.1:0", "127.0.0.1", 0, true),
    (":9000", "127.0.0.1", 9000, true),
    ("localhost:1", "127.0.0.1", 1, true),
    ("[::1]:8443", "::1", 8443, true),
    ("0.0.0.0:8080", "0.0.0.0", 8080, false),
    ("192.168.0.7:80", "192.168.0.7", 80, false),
    ("[::]:80", "::", 80, false),
  ])
  func anAddressIsReadWithItsPort(text: String, host: String, port: Int, loopback: Bool) throws {
    let address = try ListenAddress(text)
    #expect(address.host == host)
    #expect(Int(address.port) == port)
    #expect(address.isLoopback == loopback)
  }

  @Test(arguments: [
    "8080", "127.0.0.1", "127.0.0.1:65536", "shop.example:80", "::1:80", "1.2.3:80", "127.0.0.1:-1",
  ])
  func anythingElseIsAUsageErrorNamingIt(text: String) {
    #expect(throws: CLIError.invalidListen(text)) { try ListenAddress(text) }
  }

  @Test func anIPv6OriginIsBracketed() throws {
    #expect(try ListenAddress("[::1]:0").authority(port: 4000) == "[::1]:4000")
    #expect(try ListenAddress("127.0.0.1:0").authority(port: 4000) == "127.0.0.1:4000")
  }
}
