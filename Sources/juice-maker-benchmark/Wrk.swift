import Foundation

/// Runs of `wrk`, the HTTP load generator: two threads, keep-alive connections, one URL.
struct Wrk {
  /// What one run counted.
  struct Run {
    /// Responses per second over the run.
    let rate: Double
    /// Responses received.
    let responses: Int
    /// Responses whose status was not 2xx or 3xx.
    let refused: Int
    /// Connect, read, write and timeout errors together.
    let socketErrors: Int
  }

  let path: String

  /// Finds `wrk` on `PATH`, or `nil` when it is not installed.
  init?() {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    guard
      let found = directories.map({ $0 + "/wrk" }).first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return nil }
    path = found
  }

  /// Drives `url` for `duration` over `connections` connections from two threads.
  ///
  /// - Parameter script: A Lua script that shapes the requests; GET without one.
  /// - Throws: `BenchmarkError.failed` when `wrk` fails or prints no rate.
  func run(_ url: String, connections: Int, for duration: Duration, script: String? = nil)
    throws(BenchmarkError) -> Run
  {
    var arguments = [
      "-t2", "-c\(connections)", "-d\(max(1, duration.components.seconds))s",
    ]
    if let script { arguments += ["-s", script] }
    arguments.append(url)
    let run = try ChildProcess.run(path, arguments, captureOutput: true)
    let text = run.output
    guard run.status == 0,
      let rate = text.firstMatch(of: /Requests\/sec:\s+([0-9.]+)/).flatMap({ Double($0.1) }),
      let responses = text.firstMatch(of: /([0-9]+) requests in/).flatMap({ Int($0.1) })
    else {
      throw .failed(
        "wrk \(arguments.joined(separator: " ")) failed (status \(run.status)): \(text)")
    }
    let refused =
      text.firstMatch(of: /Non-2xx or 3xx responses: ([0-9]+)/).flatMap { Int($0.1) } ?? 0
    let socketErrors =
      text.firstMatch(
        of: /Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)/
      ).map { [$0.1, $0.2, $0.3, $0.4].compactMap { Int($0) }.reduce(0, +) } ?? 0
    return Run(rate: rate, responses: responses, refused: refused, socketErrors: socketErrors)
  }
}
