import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `juice-maker serve` on a sandbox's store, for the kiosk's browser tests.
///
/// It reads the origin from the first line the server writes, and stops it with SIGTERM,
/// as a service manager would, so a test can start it again on the same store and port.
final class KioskServer: Sendable {
  /// The origin the server printed, such as `http://127.0.0.1:41234/`.
  let origin: URL
  /// The port it listens on.
  let port: Int
  private let process: Process
  private let outputFile: URL
  private let errorFile: URL

  /// Starts `juice-maker --store STORE [--shop SHOP] serve --listen 127.0.0.1:PORT`.
  ///
  /// - Parameters:
  ///   - sandbox: Gives the store, `HOME` and the environment.
  ///   - port: The port, or 0 for a free one.
  ///   - arguments: More arguments of `serve`, such as `--token-file FILE`.
  init(in sandbox: Sandbox, port: Int = 0, arguments: [String] = []) async throws {
    let binary = try #require(Paths.binary, "juice-maker is not built")
    let name = "serve-" + UUID().uuidString
    outputFile = sandbox.directory.appending(path: "\(name).out")
    errorFile = sandbox.directory.appending(path: "\(name).err")
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    process = Process()
    process.executableURL = binary
    process.arguments =
      ["--store", sandbox.store, "serve", "--listen", "127.0.0.1:\(port)"] + arguments
    process.environment = sandbox.baseEnvironment
    process.currentDirectoryURL = Paths.root
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    var line: String?
    // As long as any run of the binary may take: the whole suite keeps the machine busy.
    let deadline = ContinuousClock.now + Sandbox.timeout
    while line == nil, ContinuousClock.now < deadline, process.isRunning {
      let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      if let end = text.firstIndex(of: "\n") {
        line = String(text[..<end])
      } else {
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    guard let line, let url = URL(string: line), let port = url.port else {
      let running = process.isRunning
      if running { process.terminate() }
      let error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      Issue.record(
        """
        juice-maker serve \(running ? "printed no origin line in \(Sandbox.timeout)" : "ended") \
        (stdout: \(output.debugDescription), stderr: \(error.debugDescription))
        """)
      throw CancellationError()
    }
    origin = url
    self.port = port
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// The page's address, with a query such as `lang=ko`.
  func page(_ query: String? = nil) throws -> URL {
    try #require(URL(string: origin.absoluteString + (query.map { "?" + $0 } ?? "")))
  }

  /// What the server wrote to standard error.
  var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

  /// Stops the server with SIGTERM and waits for it to end.
  ///
  /// - Returns: Its exit status, or 128 + the signal that ended it.
  @discardableResult
  func stop(timeout: Duration = .seconds(30)) async throws -> Int32 {
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    if process.isRunning {
      Issue.record("juice-maker serve ran past \(timeout) after SIGTERM")
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    let status = process.terminationStatus
    return process.terminationReason == .uncaughtSignal ? 128 + status : status
  }
}
