import Foundation

// The figures of the goals, measured against baselines of the same run.
// See `Options` for the command line and `Figure` for the output format.
do throws(BenchmarkError) {
  try await Benchmark(options: Options(arguments: Array(CommandLine.arguments.dropFirst())))
    .run()
} catch {
  let stream = error.exitCode == 0 ? FileHandle.standardOutput : FileHandle.standardError
  stream.write(Data((error.description + "\n").utf8))
  exit(error.exitCode)
}
