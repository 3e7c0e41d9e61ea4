import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `juice-maker serve` running as a child process in a sandbox.
///
/// Starting it waits for the first line of standard output, the origin the server
/// answers at (`http://127.0.0.1:41234/`), and fails when the process ends first. The
/// process is killed when the value is released, so a failing test leaves no server.
/// Standard output and error go to files in the sandbox, never a pipe nobody reads.
final class ServeProcess {
  /// The origin from the first line, such as `http://127.0.0.1:41234/`.
  let origin: URL
  /// The first line exactly as printed.
  let originLine: String
  /// The host the server listens on, without brackets.
  let host: String
  /// The port the server listens on.
  let port: Int
  /// The process id.
  let pid: Int32

  private let process: Process
  private let outputFile: URL
  private let errorFile: URL

  /// How long the server may take to print its origin.
  static let startTimeout: Duration = .seconds(30)

  /// Starts `juice-maker [--store STORE] serve ARGUMENTS`, listening on a free port of
  /// 127.0.0.1 unless `arguments` has `--listen`.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after `serve`.
  ///   - sandbox: Gives `HOME`, the environment and, unless `store` is given, the store.
  ///   - store: The store instead of the sandbox's, such as a PostgreSQL URI; `""` for
  ///     no `--store` at all (for `--memory`).
  ///   - global: Global options before `serve`, such as `--lang ko` or `--shop airport`.
  ///   - environment: Variables to set, or to remove with `nil`.
  init(
    _ arguments: [String] = [], in sandbox: Sandbox, store: String? = nil, global: [String] = [],
    environment changes: [String: String?] = [:], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let started = try Self.launch(
      arguments, in: sandbox, store: store, global: global, environment: changes)
    process = started.process
    outputFile = started.output
    errorFile = started.error
    pid = process.processIdentifier
    let deadline = ContinuousClock.now + Self.startTimeout
    var line: String?
    while ContinuousClock.now < deadline {
      let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      if let newline = text.firstIndex(of: "\n") {
        line = String(text[..<newline])
        break
      }
      if !process.isRunning { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    guard let line, let url = URL(string: line), let port = url.port, let host = url.host else {
      let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      let stdout = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      if process.isRunning { Self.signal(process, SIGKILL) }
      Issue.record(
        "juice-maker serve \(arguments) printed no origin line:\n--- stdout\n\(stdout)--- stderr\n\(stderr)",
        sourceLocation: sourceLocation)
      throw StartFailed()
    }
    originLine = line
    origin = url
    self.port = port
    self.host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
  }

  deinit {
    if process.isRunning {
      Self.signal(process, SIGKILL)
      process.waitUntilExit()
    }
  }

  struct StartFailed: Error {}

  /// Starts the process without waiting for anything.
  private static func launch(
    _ arguments: [String], in sandbox: Sandbox, store: String?, global: [String],
    environment changes: [String: String?]
  ) throws -> (process: Process, output: URL, error: URL) {
    let binary = try #require(
      Paths.binary,
      "juice-maker is not built; run swift build, or set JUICE_MAKER_BINARY to its path")
    let name = "serve-\(UUID().uuidString)"
    let output = sandbox.directory.appending(path: "\(name).out")
    let error = sandbox.directory.appending(path: "\(name).err")
    try Data().write(to: output)
    try Data().write(to: error)
    let process = Process()
    process.executableURL = binary
    let storeOptions: [String]
    switch store {
    case nil: storeOptions = ["--store", sandbox.store]
    case "": storeOptions = []
    case let store?: storeOptions = ["--store", store]
    }
    let listen = arguments.contains { $0 == "--listen" || $0.hasPrefix("--listen=") }
    process.arguments =
      storeOptions + global + ["serve"] + (listen ? [] : ["--listen", "127.0.0.1:0"]) + arguments
    var environment = sandbox.baseEnvironment
    for (key, value) in changes {
      environment[key] = value
    }
    process.environment = environment
    process.currentDirectoryURL = Paths.root
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: error)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, output, error)
  }

  /// Runs `juice-maker serve` expecting it to refuse to start, and returns how it ended.
  ///
  /// A server that starts anyway is killed after `timeout`, and the outcome says so with
  /// the status 128 + `SIGKILL`.
  static func refusal(
    _ arguments: [String], in sandbox: Sandbox, global: [String] = [],
    timeout: Duration = .seconds(15)
  ) async throws -> Outcome {
    let started = try launch(arguments, in: sandbox, store: nil, global: global, environment: [:])
    let deadline = ContinuousClock.now + timeout
    while started.process.isRunning && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    if started.process.isRunning { signal(started.process, SIGKILL) }
    started.process.waitUntilExit()
    let status =
      started.process.terminationReason == .uncaughtSignal
      ? 128 + started.process.terminationStatus : started.process.terminationStatus
    return Outcome(
      status: status,
      stdout: (try? String(contentsOf: started.output, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: started.error, encoding: .utf8)) ?? "")
  }

  // MARK: - Reading

  /// Everything written to standard output so far.
  var stdout: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
  /// Everything written to standard error so far.
  var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }
  /// Whether the process still runs.
  var isRunning: Bool { process.isRunning }

  /// A client for this server, with a bearer token when given.
  func client(token: String? = nil) -> HTTPClient {
    HTTPClient(origin: origin, token: token)
  }

  /// A new raw connection to this server.
  func connect(source: String? = nil) throws -> RawHTTPConnection {
    try RawHTTPConnection(host: host, port: port, source: source)
  }

  // MARK: - Ending

  /// Sends `SIGTERM` and waits for the process to end.
  ///
  /// - Returns: The exit status, or 128 + the signal that ended it; `nil` when it still
  ///   ran after `timeout` (it is then killed).
  @discardableResult
  func terminate(timeout: Duration = .seconds(30)) async throws -> Int32? {
    Self.signal(process, SIGTERM)
    return try await waitForExit(timeout: timeout)
  }

  /// Sends `SIGKILL` and waits for the process to end.
  func kill() async throws {
    Self.signal(process, SIGKILL)
    _ = try await waitForExit(timeout: .seconds(30))
  }

  /// Waits for the process to end.
  ///
  /// - Returns: The exit status, or 128 + the signal that ended it; `nil` when it still
  ///   ran after `timeout`, in which case it is killed.
  func waitForExit(timeout: Duration) async throws -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    if process.isRunning {
      Self.signal(process, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    let status = process.terminationStatus
    return process.terminationReason == .uncaughtSignal ? 128 + status : status
  }

  private static func signal(_ process: Process, _ number: Int32) {
    #if canImport(Glibc)
      _ = Glibc.kill(process.processIdentifier, number)
    #elseif canImport(Darwin)
      _ = Darwin.kill(process.processIdentifier, number)
    #endif
  }
}
