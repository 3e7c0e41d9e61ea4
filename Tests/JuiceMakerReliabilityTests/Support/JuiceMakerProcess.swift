import Foundation
import Synchronization

/// Runs the built `juice-maker` in a child process, as a user would.
enum JuiceMakerProcess {
  /// What a finished run left.
  struct Outcome: CustomStringConvertible {
    /// The exit code, or the signal number when `exited` is false.
    let status: Int32
    /// Whether the process ended by `exit` rather than a signal.
    let exited: Bool
    /// Whether the run outlived its time limit and was killed.
    let timedOut: Bool
    let stdout: [UInt8]
    let stderr: [UInt8]

    var standardOutput: String { String(decoding: stdout, as: UTF8.self) }
    var standardError: String { String(decoding: stderr, as: UTF8.self) }

    var description: String {
      let how = timedOut ? "timed out" : exited ? "exit \(status)" : "signal \(status)"
      return "\(how); stderr: \(standardError.prefix(600)); stdout: \(standardOutput.prefix(300))"
    }
  }

  /// Runs `juice-maker` with arguments and waits for it.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - workspace: Provides the environment and the working directory.
  ///   - environment: Extra variables, over the workspace's.
  ///   - input: Standard input, as bytes; empty for none.
  ///   - wrapper: A program and its arguments that run `juice-maker` (given after them),
  ///     such as `unshare`; none by default.
  ///   - timeout: How long the run may take before it is killed.
  static func run(
    _ arguments: [String], in workspace: Workspace, environment: [String: String] = [:],
    input: [UInt8] = [], timeout: Duration = .seconds(30), through wrapper: [String] = []
  ) throws -> Outcome {
    let process = Process()
    if let program = wrapper.first {
      // The wrapper runs the binary itself, given after its own arguments.
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = wrapper.dropFirst() + [Paths.binary] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: Paths.binary)
      process.arguments = arguments
    }
    process.environment = workspace.environment.merging(environment) { $1 }
    process.currentDirectoryURL = workspace.url.appendingPathComponent("cwd")
    // Files, not pipes: a child that writes a lot never blocks on a full pipe.
    let io = workspace.url.appendingPathComponent("io-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: io, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: io) }
    let inURL = io.appendingPathComponent("stdin")
    let outURL = io.appendingPathComponent("stdout")
    let errURL = io.appendingPathComponent("stderr")
    try Data(input).write(to: inURL)
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let stdin = try FileHandle(forReadingFrom: inURL)
    let stdout = try FileHandle(forWritingTo: outURL)
    let stderr = try FileHandle(forWritingTo: errURL)
    defer {
      try? stdin.close()
      try? stdout.close()
      try? stderr.close()
    }
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let timedOut = try wait(for: process, timeout: timeout)
    return Outcome(
      status: process.terminationStatus, exited: process.terminationReason == .exit,
      timedOut: timedOut,
      stdout: [UInt8]((try? Data(contentsOf: outURL)) ?? Data()),
      stderr: [UInt8]((try? Data(contentsOf: errURL)) ?? Data()))
  }

  /// Starts a process and waits for it, killing it with `SIGKILL` after `timeout`.
  ///
  /// - Returns: Whether it had to be killed.
  static func wait(for process: Process, timeout: Duration) throws -> Bool {
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    let seconds =
      Double(timeout.components.seconds)
      + Double(timeout.components.attoseconds) / 1e18
    if done.wait(timeout: .now() + seconds) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      done.wait()
      process.waitUntilExit()
      return true
    }
    process.waitUntilExit()
    return false
  }
}
