import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `juice-maker` running in a pane of a real terminal: a tmux server of the
/// test's own (`tmux -L NAME`, no configuration file), driven with `send-keys` and read
/// with `capture-pane`.
///
/// The pane runs `juice-maker`, then prints `exit=STATUS` and the output of `stty -a`,
/// and stays open, so a test can check how the program left the terminal.
///
/// Waiting for the screen polls on a thread of its own, not on the test's task: inside
/// the whole suite, tests that block their threads (fuzzing, process runs, kill loops)
/// can hold every thread of Swift's cooperative pool for longer than a wait lasts, and
/// a wait polled from the pool woke only after its deadline, holding the capture it
/// took at the start, blank, before the program had drawn.
final class TmuxPane: Sendable {
  /// The `tmux` executable on `PATH`, if any.
  static let executable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { $0 + "/tmux" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  /// Whether tmux tests must run: always under `CI=true`, where a missing tmux fails
  /// them instead of skipping them.
  static let required = ProcessInfo.processInfo.environment["CI"] == "true"

  /// Whether the tmux tests run: tmux is installed, or CI requires them.
  static let enabled = executable != nil || required

  /// How long a test waits for the screen to show something before it fails: as long as
  /// a run of the executable may take, for a machine busy with other tests.
  static let timeout = Sandbox.timeout

  private let tmux: String
  private let socket: String
  private let environment: [String: String]
  /// The file the program's process id is written to, for sending it signals.
  let pidFile: String

  /// Starts `juice-maker` with the arguments in a new detached pane.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after `--store STORE`.
  ///   - sandbox: Gives the store, `HOME` and the environment.
  ///   - store: The store to use instead of the sandbox's, such as a PostgreSQL URI.
  ///   - width: The pane's columns.
  ///   - height: The pane's rows.
  ///   - environment: Variables to set in the pane, such as `TERM=dumb` or `NO_COLOR=1`.
  init(
    _ arguments: [String], in sandbox: Sandbox, store: String? = nil, width: Int = 80,
    height: Int = 24, environment changes: [String: String] = [:]
  ) throws {
    tmux = try #require(
      Self.executable, "tmux is not installed; the full-screen tests need it (apt-get install tmux)"
    )
    let binary = try #require(
      Paths.binary,
      "juice-maker is not built; run swift build, or set JUICE_MAKER_BINARY to its path")
    socket = "juice-maker-test-\(UUID().uuidString.prefix(8))"
    pidFile = sandbox.path("pane-\(UUID().uuidString).pid")
    var environment = sandbox.baseEnvironment
    // tmux measures characters with wcwidth(3), which needs a UTF-8 locale.
    environment["LC_ALL"] = "C.UTF-8"
    environment["TERM"] = "xterm-256color"
    self.environment = environment
    let exports = changes.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
    let program = ([binary.path, "--store", store ?? sandbox.store] + arguments).map(Self.quoted)
    let inner =
      "echo $$ > \(Self.quoted(pidFile)); exec env \(exports.joined(separator: " ")) "
      + program.joined(separator: " ")
    let command =
      "cd \(Self.quoted(Paths.root.path)) && sh -c \(Self.quoted(inner)); echo \"exit=$?\"; "
      + "stty -a; exec sleep 3600"
    _ = try tmuxCommand([
      "new-session", "-d", "-x", String(width), "-y", String(height), "sh", "-c", command,
    ])
  }

  deinit {
    _ = try? tmuxCommand(["kill-server"])
  }

  // MARK: - Driving

  /// Sends keys by tmux's names (`Enter`, `Escape`, `Right`, `PPage`, `C-c`) or as text.
  func send(_ keys: String...) throws {
    _ = try tmuxCommand(["send-keys", "-t", "0"] + keys)
  }

  /// Sends text as typed, without reading key names in it.
  func type(_ text: String) throws {
    _ = try tmuxCommand(["send-keys", "-t", "0", "-l", text])
  }

  /// Resizes the window.
  func resize(width: Int, height: Int) throws {
    _ = try tmuxCommand(["resize-window", "-t", "0", "-x", String(width), "-y", String(height)])
  }

  /// The screen's rows, without trailing spaces; with `escapes`, with the SGR sequences
  /// of their attributes and colours.
  func capture(escapes: Bool = false) throws -> [String] {
    let text = try tmuxCommand(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// A tmux format about the pane, such as `#{alternate_on}`.
  func display(_ format: String) throws -> String {
    try tmuxCommand(["display-message", "-p", "-t", "0", format]).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// The program's process id.
  func programID() async throws -> Int32 {
    let text = try await waitForValue { try? String(contentsOfFile: self.pidFile, encoding: .utf8) }
    return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  /// Waits until the screen satisfies `condition`, and returns it.
  @discardableResult
  func waitFor(
    _ what: String, timeout: Duration = TmuxPane.timeout,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @escaping @Sendable ([String]) -> Bool
  ) async throws -> [String] {
    let (met, screen) = await Self.poll(timeout: timeout) {
      let screen = (try? self.capture()) ?? []
      return (condition(screen), screen)
    }
    if met { return screen }
    Issue.record(
      "the screen did not show \(what) within \(timeout):\n\(screen.joined(separator: "\n"))",
      sourceLocation: sourceLocation)
    throw TimedOut()
  }

  /// Waits until the screen has a row containing `text`, and returns it.
  @discardableResult
  func waitFor(
    text: String, timeout: Duration = TmuxPane.timeout,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [String] {
    try await waitFor("“\(text)”", timeout: timeout, sourceLocation: sourceLocation) {
      $0.contains { $0.contains(text) }
    }
  }

  /// Waits until no row of the screen contains `text`, and returns it.
  @discardableResult
  func waitFor(
    noText text: String, timeout: Duration = TmuxPane.timeout,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [String] {
    try await waitFor("no “\(text)”", timeout: timeout, sourceLocation: sourceLocation) {
      !$0.isEmpty && !$0.contains { $0.contains(text) }
    }
  }

  /// The program's exit status and the terminal modes `stty -a` printed after it ended.
  func waitForExit() async throws -> (status: Int, stty: Set<String>) {
    let screen = try await waitFor("the program's end") { screen in
      screen.contains { $0.hasPrefix("exit=") } && screen.contains { $0.contains("min =") }
    }
    let line = try #require(screen.first { $0.hasPrefix("exit=") })
    let status = try #require(Int(line.dropFirst("exit=".count)))
    let words = screen.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == ";" }) }
    return (status, Set(words.map(String.init)))
  }

  private func waitForValue<T: Sendable>(_ value: @escaping @Sendable () -> T?) async throws -> T {
    let (_, found) = await Self.poll(timeout: Self.timeout) {
      let found = value()
      return (found != nil, found)
    }
    guard let found else { throw TimedOut() }
    return found
  }

  /// Runs `attempt` every 25 ms on a thread of its own until it reports success or
  /// `timeout` passes, and gives its last result; the attempt after the deadline is
  /// always made, so a late start cannot end with a stale result.
  private static func poll<T: Sendable>(
    timeout: Duration, _ attempt: @escaping @Sendable () -> (Bool, T)
  ) async -> (Bool, T) {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
          let result = attempt()
          if result.0 || clock.now >= deadline {
            continuation.resume(returning: result)
            return
          }
          Thread.sleep(forTimeInterval: 0.025)
        }
      }
      thread.start()
    }
  }

  struct TimedOut: Error {}

  // MARK: - Running tmux

  /// Runs a tmux command and returns what it printed.
  ///
  /// tmux is started with `posix_spawn` and an empty signal mask: a child inherits the
  /// mask of the thread that starts it, and a tmux server started from a test thread
  /// with signals blocked would never notice its panes' processes ending.
  @discardableResult
  private func tmuxCommand(_ arguments: [String]) throws -> String {
    // The output comes through a pipe read to its end, not a file read after waitpid(2):
    // Foundation's `Process` may reap any child of the test process, this one included,
    // and then waitpid returns at once.
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SpawnFailed(code: errno) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var readEnd = ends[0]
    defer { if readEnd >= 0 { close(readEnd) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGPIPE, SIGWINCH, SIGUSR1, SIGUSR2] {
      sigaddset(&defaults, number)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([tmux, "-L", socket, "-f", "/dev/null", "-u"] + arguments).map { strdup($0) }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer { (argv + envp).forEach { free($0) } }
    var child = pid_t()
    let started = posix_spawn(&child, tmux, &actions, &attributes, argv + [nil], envp + [nil])
    close(ends[1])
    guard started == 0 else { throw SpawnFailed(code: started) }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(readEnd, &buffer, buffer.count)
      if count > 0 {
        output += buffer[..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    close(readEnd)
    readEnd = -1
    var status: Int32 = 0
    _ = waitpid(child, &status, 0)
    return String(decoding: output, as: UTF8.self)
  }

  struct SpawnFailed: Error {
    var code: Int32
  }

  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
