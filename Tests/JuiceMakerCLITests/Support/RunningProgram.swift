import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `juice-maker` running in a sandbox while the test acts: lines are written to
/// its standard input through a pipe, and what it writes is read from files as it goes.
final class RunningProgram {
  private let process: Process
  private let input: FileHandle
  private let outputFile: URL
  private let errorFile: URL

  /// Starts `juice-maker --store STORE` with `arguments`.
  init(_ arguments: [String], in sandbox: Sandbox) throws {
    // A line written after the program ended must fail, not end the test runner.
    signal(SIGPIPE, SIG_IGN)
    let binary = try #require(Paths.binary, "juice-maker is not built")
    let name = UUID().uuidString
    outputFile = sandbox.directory.appending(path: "\(name).out")
    errorFile = sandbox.directory.appending(path: "\(name).err")
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    process = Process()
    process.executableURL = binary
    process.arguments = ["--store", sandbox.store] + arguments
    process.environment = sandbox.baseEnvironment
    process.currentDirectoryURL = Paths.root
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    let pipe = Pipe()
    process.standardInput = pipe
    input = pipe.fileHandleForWriting
    try process.run()
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// Everything written to standard output so far.
  var stdout: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
  /// Everything written to standard error so far.
  var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }
  /// Whether the program still runs.
  var isRunning: Bool { process.isRunning }

  /// Writes one line to standard input; `false` when the program no longer reads it.
  @discardableResult
  func send(_ line: String) -> Bool {
    (try? input.write(contentsOf: Data((line + "\n").utf8))) != nil
  }

  /// Waits until `condition` holds or the program ends, for at most `timeout`.
  ///
  /// - Returns: Whether `condition` held.
  @discardableResult
  func wait(
    timeout: Duration = .seconds(30), until condition: (RunningProgram) -> Bool
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition(self) { return true }
      if !process.isRunning { return condition(self) }
      try await Task.sleep(for: .milliseconds(20))
    }
    return condition(self)
  }

  /// Closes standard input and waits for the program to end, killing it after `timeout`.
  ///
  /// - Returns: The exit status, or 128 + the signal that ended the program.
  func finish(timeout: Duration = .seconds(30)) async throws -> Int32 {
    try? input.close()
    try await wait(timeout: timeout) { !$0.isRunning }
    if process.isRunning {
      process.terminate()
      Issue.record("juice-maker ran past \(timeout)")
    }
    process.waitUntilExit()
    let status = process.terminationStatus
    return process.terminationReason == .uncaughtSignal ? 128 + status : status
  }
}
