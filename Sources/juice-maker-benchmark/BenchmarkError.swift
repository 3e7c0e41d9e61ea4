/// Why the benchmark could not measure; a missed goal is not an error.
enum BenchmarkError: Error, CustomStringConvertible {
  /// The command line is wrong; `nil` asks for the usage text only.
  case usage(String?)
  /// A measurement could not be set up or run.
  case failed(String)
  /// A workload gave a wrong result, so its timing means nothing.
  case wrongResult(String)

  var description: String {
    switch self {
    case .usage(let problem): (problem.map { "error: \($0)\n\n" } ?? "") + Options.usage
    case .failed(let detail): "error: \(detail)"
    case .wrongResult(let detail): "error: wrong result: \(detail)"
    }
  }

  /// The process exit code, from sysexits.
  var exitCode: Int32 {
    switch self {
    case .usage(let problem): problem == nil ? 0 : 64
    case .failed: 74
    case .wrongResult: 70
    }
  }
}
