import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program that serves HTTP until SIGTERM, such as `juice-maker serve` or the floor
/// program: started with `posix_spawn`, its origin read from the first line of its
/// standard output.
///
/// Its standard output goes to a temporary file, so a program that writes more than the
/// first line never blocks on a full pipe; its standard error is the benchmark's.
final class ServerProcess {
  let pid: pid_t
  /// The origin it printed, such as `http://127.0.0.1:41234/`.
  let origin: String
  /// The host of the origin.
  let host: String
  /// The port of the origin.
  let port: UInt16
  private let outputPath: String
  private var running = true

  /// Starts `path` with `arguments` and waits for its first line.
  ///
  /// - Throws: `BenchmarkError.failed` when it cannot start, exits, or prints no origin
  ///   within 30 seconds.
  init(_ path: String, _ arguments: [String]) throws(BenchmarkError) {
    outputPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("juice-maker-benchmark-server-\(UUID().uuidString).out").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(
      &actions, STDOUT_FILENO, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv + [nil], environ)
    guard spawned == 0 else {
      throw .failed("cannot start \(path): \(String(cString: strerror(spawned)))")
    }
    self.pid = pid
    let command = ([path] + arguments).joined(separator: " ")
    let deadline = ContinuousClock.now + .seconds(30)
    var line: String?
    while line == nil {
      if let text = try? String(contentsOfFile: outputPath, encoding: .utf8),
        let end = text.firstIndex(of: "\n")
      {
        line = String(text[..<end])
        break
      }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        running = false
        try? FileManager.default.removeItem(atPath: outputPath)
        throw .failed("\(command) exited (status \(status)) before printing its origin")
      }
      if ContinuousClock.now > deadline {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        running = false
        throw .failed("\(command) printed no origin within 30 s")
      }
      usleep(5_000)
    }
    guard let line,
      let match = line.firstMatch(of: /^https?:\/\/(\[[^\]]+\]|[^:\/]+):([0-9]+)\/?$/),
      let port = UInt16(match.2)
    else {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      running = false
      try? FileManager.default.removeItem(atPath: outputPath)
      throw .failed("\(command) printed no origin but: \(line ?? "")")
    }
    origin = line
    host = String(match.1)
    self.port = port
  }

  deinit {
    stop()
  }

  /// What it wrote to standard output so far.
  var output: String {
    (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }

  /// The resident set size now, in bytes, from `/proc/PID/status`.
  var residentBytes: Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let match = text.firstMatch(of: /VmRSS:\s+([0-9]+) kB/), let kilobytes = Int(match.1)
    else { return nil }
    return kilobytes * 1024
  }

  /// The CPU time it has used so far, user and system, from `/proc/PID/stat`.
  var cpuTime: Duration? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = text.lastIndex(of: ")")
    else { return nil }
    // After the command name: state (field 3) … utime (14), stime (15).
    let fields = text[text.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    let ticks = sysconf(Int32(_SC_CLK_TCK))
    return .microseconds((user + system) * 1_000_000 / max(1, ticks))
  }

  /// Sends SIGTERM and waits up to 10 seconds for the exit, then kills it.
  ///
  /// - Returns: The exit status, or 128 + the signal that ended it; `nil` when it had
  ///   already been reaped.
  @discardableResult
  func stop() -> Int32? {
    guard running else { return nil }
    running = false
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + .seconds(10)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if ContinuousClock.now > deadline {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        return 128 + SIGKILL
      }
      usleep(5_000)
    }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}
