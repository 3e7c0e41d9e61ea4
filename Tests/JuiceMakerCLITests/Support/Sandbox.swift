import Foundation
import JuiceMakerCLI
import Synchronization
import Testing

/// One test's own world: a fresh temporary directory that serves as `HOME` and holds the
/// store file (made by `init` unless the test asks for none), and a controlled environment
/// without the caller's `LANG`, `LC_*` or `JUICE_MAKER_*`.
///
/// `run` starts the built `juice-maker`, with the package root as its working directory so
/// `./Recipes` and `./Localization` resolve; `runInProcess` runs `CLI` in this process.
/// Both pass `--store` with the sandbox's store file unless told not to.
final class Sandbox: Sendable {
  /// The directory, removed when the sandbox is released.
  let directory: URL
  /// The store file the runs use.
  let store: String

  /// How long one run may take before it is killed and the test fails.
  static let timeout: Duration = .seconds(60)

  /// Whether the sandbox's store exists before the first run.
  enum StoreSetup {
    /// Created by the built `juice-maker init`, with the shipped menu's initial stock, as
    /// a shop is set up before it is used.
    case initialized
    /// Not there: a command given `--store` with it is refused until `init` creates it.
    case absent
  }

  /// Creates the sandbox's directory and, unless told not to, its store.
  ///
  /// - Parameter setup: Whether to run `juice-maker init` for the sandbox's store first.
  init(_ setup: StoreSetup = .initialized) throws {
    directory = FileManager.default.temporaryDirectory
      .appending(path: "JuiceMakerCLITests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    store = directory.appending(path: "store.sqlite").path
    if setup == .initialized {
      let outcome = try runBlocking(["init"])
      try #require(outcome.status == 0, "juice-maker init: \(outcome)")
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A path inside the sandbox.
  func path(_ name: String) -> String {
    directory.appending(path: name).path
  }

  /// The environment every run starts from: `HOME` and `XDG_STATE_HOME` in the sandbox, the
  /// caller's `PATH`, and nothing that chooses a language or a `juice-maker` setting.
  var baseEnvironment: [String: String] {
    var environment = ["HOME": directory.path, "XDG_STATE_HOME": path("state")]
    let inherited = ProcessInfo.processInfo.environment
    for key in ["PATH", "LLVM_PROFILE_FILE", "TMPDIR"] {
      if let value = inherited[key] { environment[key] = value }
    }
    return environment
  }

  private func environment(_ changes: [String: String?]) -> [String: String] {
    var environment = baseEnvironment
    for (key, value) in changes {
      environment[key] = value
    }
    return environment
  }

  /// Creates another store with the shipped menu's initial stock: `juice-maker init`.
  ///
  /// - Parameter path: The store file, or a PostgreSQL URI.
  func initialize(_ path: String) async throws {
    let outcome = try await run(["--store", path, "init"], useStore: false)
    try #require(outcome.status == 0, "juice-maker init: \(outcome)")
  }

  // MARK: - Running the executable

  /// Runs the built `juice-maker` and waits for it to end.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - input: Standard input, or `nil` for `/dev/null`.
  ///   - environment: Variables to set, or to remove with `nil`.
  ///   - useStore: Whether to pass `--store` with the sandbox's store file first.
  ///   - binary: The executable to run instead of the built one.
  ///   - workingDirectory: Where it runs, instead of the package root.
  /// - Returns: The exit status and what the process wrote.
  func run(
    _ arguments: [String], input: String? = nil, environment changes: [String: String?] = [:],
    useStore: Bool = true, binary: URL? = nil, workingDirectory: URL? = nil
  ) async throws -> Outcome {
    let launch = try Launch(
      sandbox: self, arguments: arguments, input: input, environment: changes,
      useStore: useStore, binary: binary, workingDirectory: workingDirectory)
    defer { launch.close() }
    let process = launch.process
    let timedOut = Mutex(false)
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { process in
        continuation.resume(returning: Launch.status(of: process))
      }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
        return
      }
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .seconds(Int(Self.timeout.components.seconds))
      ) {
        guard process.isRunning else { return }
        timedOut.withLock { $0 = true }
        process.terminate()
      }
    }
    let outcome = try launch.outcome(status: status)
    // A process the timer found running but that ended on its own (the timer can see a
    // process that has just exited as running) did not run past the limit.
    let killed = process.terminationReason == .uncaughtSignal
    #expect(
      !(timedOut.withLock { $0 } && killed), "juice-maker \(arguments) ran past \(Self.timeout)")
    return outcome
  }

  /// Runs the built `juice-maker` with the sandbox's store and blocks the calling thread
  /// until it ends, for code that cannot await: `init` when the sandbox is made, a
  /// `LineInput` acting between two lines of a shop run in-process.
  ///
  /// - Parameter arguments: The arguments after `--store FILE`.
  /// - Returns: The exit status and what the process wrote.
  func runBlocking(_ arguments: [String]) throws -> Outcome {
    let launch = try Launch(
      sandbox: self, arguments: arguments, input: nil, environment: [:], useStore: true,
      binary: nil, workingDirectory: nil)
    defer { launch.close() }
    try launch.process.run()
    launch.process.waitUntilExit()
    return try launch.outcome(status: Launch.status(of: launch.process))
  }

  /// A `juice-maker` process ready to start, writing its output to files in the sandbox.
  private struct Launch {
    let process = Process()
    let outputFile: URL
    let errorFile: URL
    let handles: [FileHandle]

    init(
      sandbox: Sandbox, arguments: [String], input: String?, environment: [String: String?],
      useStore: Bool, binary: URL?, workingDirectory: URL?
    ) throws {
      let binary = try #require(
        binary ?? Paths.binary,
        "juice-maker is not built; run swift build, or set JUICE_MAKER_BINARY to its path")
      try #require(
        FileManager.default.isExecutableFile(atPath: binary.path),
        "\(binary.path) is not executable")
      let name = UUID().uuidString
      outputFile = sandbox.directory.appending(path: "\(name).out")
      errorFile = sandbox.directory.appending(path: "\(name).err")
      for file in [outputFile, errorFile] {
        try Data().write(to: file)
      }
      process.executableURL = binary
      process.arguments = (useStore ? ["--store", sandbox.store] : []) + arguments
      process.environment = sandbox.environment(environment)
      process.currentDirectoryURL = workingDirectory ?? Paths.root
      let output = try FileHandle(forWritingTo: outputFile)
      let error = try FileHandle(forWritingTo: errorFile)
      handles = [output, error]
      process.standardOutput = output
      process.standardError = error
      if let input {
        let inputFile = sandbox.directory.appending(path: "\(name).in")
        try Data(input.utf8).write(to: inputFile)
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
      } else {
        process.standardInput = FileHandle.nullDevice
      }
    }

    /// The exit status, or 128 + the signal that ended the process.
    static func status(of process: Process) -> Int32 {
      let status = process.terminationStatus
      return process.terminationReason == .uncaughtSignal ? 128 + status : status
    }

    /// What the ended process wrote.
    func outcome(status: Int32) throws -> Outcome {
      Outcome(
        status: status,
        stdout: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    func close() {
      for handle in handles {
        try? handle.close()
      }
    }
  }

  // MARK: - Running in-process

  /// Runs `CLI` in this process, with the shipped data given through the environment.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - input: The lines `shop` reads.
  ///   - environment: Variables to set, or to remove with `nil`.
  ///   - useStore: Whether to pass `--store` with the sandbox's store file first.
  /// - Returns: The exit code and what the command wrote.
  func runInProcess(
    _ arguments: [String], input: String = "", environment changes: [String: String?] = [:],
    useStore: Bool = true
  ) async -> Outcome {
    await runInProcess(
      arguments, reading: ScriptedInput(input), environment: changes, useStore: useStore)
  }

  /// Runs `CLI` in this process with the given line input, which may act between lines.
  func runInProcess(
    _ arguments: [String], reading input: any LineInput,
    environment changes: [String: String?] = [:], useStore: Bool = true
  ) async -> Outcome {
    var environment = environment(changes)
    if changes.keys.contains("JUICE_MAKER_RECIPES") == false {
      environment["JUICE_MAKER_RECIPES"] = Paths.recipes.path
    }
    if changes.keys.contains("JUICE_MAKER_LOCALIZATION") == false {
      environment["JUICE_MAKER_LOCALIZATION"] = Paths.localization.path
    }
    let output = CapturedOutput()
    let error = CapturedOutput()
    let cli = CLI(
      arguments: (useStore ? ["--store", store] : []) + arguments, environment: environment,
      input: input, output: output, error: error)
    let code = await cli.run()
    return Outcome(status: code.rawValue, stdout: output.text, stderr: error.text)
  }

  // MARK: - Reading the store

  /// The stock, from `stock --json`, by fruit id.
  func stock() async throws -> [String: Int] {
    let outcome = try await run(["--json", "stock"])
    #expect(outcome.status == 0, "\(outcome)")
    let fruits = try outcome.json().objects("fruits")
    var stock: [String: Int] = [:]
    for fruit in fruits {
      let id = try #require(fruit.string("id"))
      let level = try #require(fruit.int("stock"))
      stock[id] = level
    }
    return stock
  }

  /// Sets the stock of each fruit given, in-process.
  func setStock(_ levels: [String: Int]) async {
    for (fruit, level) in levels.sorted(by: { $0.key < $1.key }) {
      let outcome = await runInProcess(["stock", "set", fruit, String(level)])
      #expect(outcome.status == 0, "\(outcome)")
    }
  }

  /// Every journal entry, newest first, from `history --json`.
  func history() async throws -> [[String: Any]] {
    let outcome = try await run(["--json", "history", "--limit", "100000"])
    #expect(outcome.status == 0, "\(outcome)")
    return try outcome.json().objects("entries")
  }
}

/// The stock of a store no one has touched: 10 of each fruit.
let freshStock = ["strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10]
