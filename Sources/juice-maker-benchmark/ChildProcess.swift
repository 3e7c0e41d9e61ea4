import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of another program, started with `posix_spawn` (or `fork` and `execve`) and
/// reaped with `wait4`.
struct ChildProcess {
  /// The wall time from just before `posix_spawn` to just after `wait4`.
  let wall: Duration
  /// The peak resident set size, from `wait4`'s `ru_maxrss`, in bytes; at least this
  /// process's own peak when started with `posix_spawn` (see `ChildMode`).
  let peakResidentBytes: Int
  /// The exit status, or 128 + the signal that ended it.
  let status: Int32
  /// What it wrote to standard output, when captured.
  let output: String

  /// Starts `path` with `arguments` in the current directory and waits for it.
  ///
  /// - Parameters:
  ///   - path: The program.
  ///   - arguments: Its arguments, after the program name.
  ///   - captureOutput: Whether to read its standard output; else it goes to `/dev/null`.
  ///   - forking: Whether to start it with `fork` and `execve`, for a `ru_maxrss` that is
  ///     not this process's own peak; its output is discarded then.
  /// - Throws: `BenchmarkError.failed` when the program cannot be started.
  static func run(
    _ path: String, _ arguments: [String], captureOutput: Bool = false, forking: Bool = false
  ) throws(BenchmarkError) -> ChildProcess {
    precondition(!(captureOutput && forking), "a forked program's output is discarded")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipeEnds: [Int32] = [-1, -1]
    if captureOutput {
      guard pipe(&pipeEnds) == 0 else { throw .failed("pipe: \(String(cString: strerror(errno)))") }
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    }
    let argv = ([path] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned: Int32
    if forking {
      spawned = forkAndExec(&pid, path, argv + [nil])
    } else {
      spawned = posix_spawn(&pid, path, &actions, nil, argv + [nil], environ)
    }
    if captureOutput { close(pipeEnds[1]) }
    guard spawned == 0 else {
      if captureOutput { close(pipeEnds[0]) }
      throw .failed("cannot start \(path): \(String(cString: strerror(spawned)))")
    }
    var output: [UInt8] = []
    if captureOutput {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(pipeEnds[0], &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        output += buffer[0..<count]
      }
      close(pipeEnds[0])
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw .failed("wait4: \(String(cString: strerror(errno)))") }
    }
    let wall = ContinuousClock.now - start
    let signal = status & 0x7f
    return ChildProcess(
      wall: wall, peakResidentBytes: Int(usage.ru_maxrss) * 1024,
      status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
      output: String(decoding: output, as: UTF8.self))
  }

  /// Starts a program with `fork` and `execve`, output discarded: unlike `posix_spawn`,
  /// whose child borrows this process's whole address space until `exec`, a forked child
  /// starts with only the anonymous pages it copies, so the started program's `ru_maxrss`
  /// is barely polluted by this process's peak.
  ///
  /// - Returns: 0, or the `errno` of a failed `fork`.
  private static func forkAndExec(
    _ pid: inout pid_t, _ path: String, _ argv: [UnsafeMutablePointer<CChar>?]
  ) -> Int32 {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(null) }
    return path.withCString { path in
      argv.withUnsafeBufferPointer { argv in
        guard let argv = argv.baseAddress else { return EINVAL }
        let child = fork()
        if child == 0 {
          // Only async-signal-safe calls between fork and exec.
          dup2(null, STDOUT_FILENO)
          execve(path, argv, environ)
          _exit(127)
        }
        if child < 0 { return errno }
        pid = child
        return 0
      }
    }
  }

  /// The `ru_maxrss` in bytes of a fork of this process that exits at once: what a program
  /// started with `forking: true` inherits.
  static func forkedPeak() -> Int {
    let child = fork()
    if child == 0 { _exit(0) }
    guard child > 0 else { return 0 }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
    return Int(usage.ru_maxrss) * 1024
  }
}
