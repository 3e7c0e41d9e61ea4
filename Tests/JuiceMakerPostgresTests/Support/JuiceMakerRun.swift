import Foundation
import Synchronization
import Testing

/// What a run of the built `juice-maker` ended with.
struct Outcome: Sendable, CustomStringConvertible {
  let status: Int32
  let stdout: String
  let stderr: String
  /// How long the process ran, from its start to its end (not counting how long the
  /// test waited to be scheduled again).
  var elapsed: Duration = .zero

  var description: String {
    "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
  }

  /// The standard output as one JSON object.
  func json() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    return try #require(object as? [String: Any], "\(self)")
  }
}

/// Runs the built `juice-maker` with the package's recipes and catalogs.
enum JuiceMakerRun {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let binary: URL? = {
    if let path = ProcessInfo.processInfo.environment["JUICE_MAKER_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var directories: [URL] = []
    if let first = CommandLine.arguments.first {
      directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    directories.append(root.appending(path: ".build/debug"))
    return directories.map { $0.appending(path: "juice-maker") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// Creates the store with `juice-maker --store STORE init`, as a chain sets up its
  /// database before its shops use it.
  static func initialize(_ store: String) async throws {
    let outcome = try await run(["init"], store: store)
    try #require(outcome.status == 0, "juice-maker init: \(outcome)")
  }

  /// Runs `juice-maker --store STORE ARGUMENTS…` and waits for it, for at most 120 s.
  ///
  /// With `killAfter`, the process is killed with `SIGKILL` that long after it started,
  /// if it still runs.
  static func run(
    _ arguments: [String], store: String?, input: String? = nil, killAfter: Duration? = nil,
    environment extra: [String: String] = [:]
  ) async throws -> Outcome {
    let binary = try #require(binary, "juice-maker is not built")
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerPostgresTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outputFile = directory.appending(path: "out")
    let errorFile = directory.appending(path: "err")
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    let process = Process()
    process.executableURL = binary
    process.arguments = (store.map { ["--store", $0] } ?? []) + arguments
    var environment = ["HOME": directory.path, "LANG": "C.UTF-8"]
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
    environment.merge(extra) { $1 }
    process.environment = environment
    process.currentDirectoryURL = root
    let output = try FileHandle(forWritingTo: outputFile)
    let error = try FileHandle(forWritingTo: errorFile)
    defer {
      try? output.close()
      try? error.close()
    }
    process.standardOutput = output
    process.standardError = error
    if let input {
      let inputFile = directory.appending(path: "in")
      try Data(input.utf8).write(to: inputFile)
      process.standardInput = try FileHandle(forReadingFrom: inputFile)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    let clock = ContinuousClock()
    let started = Mutex(clock.now)
    let (status, elapsed): (Int32, Duration) = try await withCheckedThrowingContinuation {
      continuation in
      process.terminationHandler = { process in
        let elapsed = clock.now - started.withLock { $0 }
        let status = process.terminationStatus
        continuation.resume(
          returning: (
            process.terminationReason == .uncaughtSignal ? 128 + status : status, elapsed
          ))
      }
      do {
        started.withLock { $0 = clock.now }
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
        return
      }
      if let killAfter {
        let (seconds, attoseconds) = killAfter.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
          if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
        if process.isRunning { process.terminate() }
      }
    }
    return Outcome(
      status: status,
      stdout: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self),
      elapsed: elapsed)
  }
}
