/// Why a server could not start.
public enum HTTPServerError: Error, Equatable, Sendable {
  /// The host is not an IPv4 or IPv6 address.
  case invalidHost(String)
  /// The daemon did not start: the address is taken or not this machine's, the TLS
  /// certificate or key was refused, or the system refused a resource; `reason` is the
  /// system's word for it when it gave one.
  case cannotListen(host: String, port: UInt16, reason: String)
}
