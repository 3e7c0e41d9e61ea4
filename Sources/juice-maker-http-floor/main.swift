import CMicroHTTPD
import Foundation
import JuiceMakerHTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The bare libmicrohttpd program `juice-maker serve` is measured against: a daemon with
// the flags and limits `HTTPServer` gives the configuration `serve --memory` uses (host
// 127.0.0.1, one thread per active processor), answering every request with one fixed
// `200` JSON body. The response is created once and queued for every request; a request's
// body is read and discarded. No routing, no headers read, no handler in Swift.
//
//     juice-maker-http-floor [PORT]
//
// The first line of standard output is the origin, as `serve` prints it; SIGTERM or
// SIGINT stops the daemon and exits 0.

/// Writes `message` to standard error and exits with `code`.
func fail(_ message: String, code: Int32) -> Never {
  let line = Array("juice-maker-http-floor: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
  exit(code)
}

let port = CommandLine.arguments.dropFirst().first.flatMap { UInt16($0) } ?? 0
let configuration = HTTPServer.Configuration(
  host: "127.0.0.1", port: port, threads: ProcessInfo.processInfo.activeProcessorCount)

// The daemon's threads inherit this mask: only the main thread's `sigwait` takes them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let body = Array(#"{"status":"ok"}"#.utf8)
let response = body.withUnsafeBytes { bytes in
  MHD_create_response_from_buffer(
    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
}
guard let response else {
  fail("cannot create the response", code: 70)
}
_ = MHD_add_response_header(response, "Content-Type", "application/json")

/// Called first when the header section is read, then with each piece of the body, then
/// once more with none: the fixed response is queued on that last call.
let answer: MHD_AccessHandlerCallback = {
  context, connection, _, _, _, _, uploadSize, requestContext in
  guard let context, let connection, let uploadSize, let requestContext else { return .NO }
  guard requestContext.pointee != nil else {
    // Any non-null pointer marks the request as started.
    requestContext.pointee = context
    return .YES
  }
  if uploadSize.pointee > 0 {
    uploadSize.pointee = 0
    return .YES
  }
  return MHD_queue_response(connection, 200, OpaquePointer(context))
}

var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = port.bigEndian
address.sin_addr.s_addr = inet_addr(configuration.host)
let daemon = withUnsafeMutablePointer(to: &address) { address in
  address.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
    var options = HTTPServer.daemonOptions(configuration)
    options.append(MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: socketAddress))
    options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
    return options.withUnsafeMutableBufferPointer { options in
      juice_mhd_start(
        HTTPServer.daemonFlags(configuration), 0, nil, nil, answer,
        UnsafeMutableRawPointer(response), options.baseAddress)
    }
  }
}
guard let daemon else {
  fail("cannot listen: \(String(cString: strerror(errno)))", code: 74)
}
print("http://\(configuration.host):\(juice_mhd_port(daemon))/")
fflush(nil)

var received: Int32 = 0
sigwait(&stopSignals, &received)
MHD_stop_daemon(daemon)
MHD_destroy_response(response)
exit(0)
