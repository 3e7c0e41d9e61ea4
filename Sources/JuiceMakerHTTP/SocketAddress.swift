#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An IPv4 or IPv6 address and port, as the daemon binds it.
struct SocketAddress {
  private var storage = sockaddr_storage()
  /// Whether the address is IPv6.
  let isIPv6: Bool

  /// Reads a numeric address; names are not looked up.
  ///
  /// - Throws: `HTTPServerError.invalidHost` for anything else.
  init(host: String, port: UInt16) throws(HTTPServerError) {
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, host, &v4) == 1 {
      isIPv6 = false
      withUnsafeMutableBytes(of: &storage) { raw in
        let address = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: sockaddr_in.self)
        address.pointee.sin_family = sa_family_t(AF_INET)
        address.pointee.sin_port = port.bigEndian
        address.pointee.sin_addr = v4
      }
    } else if inet_pton(AF_INET6, host, &v6) == 1 {
      isIPv6 = true
      withUnsafeMutableBytes(of: &storage) { raw in
        let address = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: sockaddr_in6.self)
        address.pointee.sin6_family = sa_family_t(AF_INET6)
        address.pointee.sin6_port = port.bigEndian
        address.pointee.sin6_addr = v6
      }
    } else {
      throw .invalidHost(host)
    }
  }

  /// Calls `body` with a pointer to the address, valid during the call.
  mutating func withPointer<Result>(_ body: (UnsafeMutableRawPointer) -> Result) -> Result {
    withUnsafeMutableBytes(of: &storage) { raw in
      // A `sockaddr_storage` is never empty.
      body(raw.baseAddress.unsafelyUnwrapped)
    }
  }
}
