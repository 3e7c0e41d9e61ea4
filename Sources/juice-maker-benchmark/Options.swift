/// The command line of the benchmark.
///
/// ```
/// juice-maker-benchmark [--quick] [--only NAME]... [--root DIR] [--juice-maker PATH]
/// ```
///
/// - `--quick`: fewer and shorter runs (5 runs, about 30 ms each; 20 process starts), for
///   a smoke test; the figures are noisier.
/// - `--only NAME`: measure only the figures named `NAME` or starting with `NAME.`, such as
///   `orders`, `catalog.one_pack`, `large.menu`, or `startup.ratio.stock_vs_foundation`;
///   may be repeated or comma-separated. A ratio measures the figures it divides.
/// - `--root DIR`: the package root, with `Recipes/` and `Localization/`; by default the
///   current directory when it has both, else the root this file was built from.
/// - `--juice-maker PATH`: the `juice-maker` to start, such as one installed with the
///   README's command, instead of the one built beside the benchmark.
struct Options: Sendable {
  var quick = false
  var only: [String] = []
  var root: String?
  /// The `juice-maker` to start instead of the build's.
  var juiceMaker: String?
  /// A hidden mode: the process is the benchmark's own child, measuring one thing.
  var child: [String] = []

  /// Parses the arguments after the program name.
  ///
  /// - Throws: `BenchmarkError.usage` for an unknown option or a missing value.
  init(arguments: [String]) throws(BenchmarkError) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick":
        quick = true
      case "--only", "--root", "--juice-maker":
        guard let value = remaining.popFirst() else {
          throw .usage("\(argument) needs a value")
        }
        if argument == "--root" {
          root = value
        } else if argument == "--juice-maker" {
          juiceMaker = value
        } else {
          only += value.split(separator: ",").map(String.init)
        }
      case "--child":
        child = Array(remaining)
        remaining = []
      case "--help", "-h":
        throw .usage(nil)
      default:
        throw .usage("unknown argument \(argument)")
      }
    }
  }

  /// Whether the figure `name` is to be measured and printed.
  func wants(_ name: String) -> Bool {
    only.isEmpty || only.contains { name == $0 || name.hasPrefix($0 + ".") }
  }

  /// Whether any figure of the group `group` (the first part of figure names) is wanted.
  func wantsGroup(_ group: String) -> Bool {
    only.isEmpty
      || only.contains { $0 == group || $0.hasPrefix(group + ".") }
  }

  /// How many runs each figure takes the median of.
  var runs: Int { quick ? 5 : 7 }
  /// How many times each program is started for a startup figure.
  var starts: Int { quick ? 20 : 30 }
  /// How long one run of a throughput figure lasts, roughly.
  var runDuration: Duration { quick ? .milliseconds(30) : .milliseconds(250) }

  static let usage = """
    usage: juice-maker-benchmark [--quick] [--only NAME]... [--root DIR] [--juice-maker PATH]

    Prints one line per figure: figure=NAME value=MEDIAN unit=UNIT runs=N min=A max=B
    goal="OP THRESHOLD"|none pass=true|false|none. Exits 0 unless something fails to run;
    a missed goal prints pass=false.

    Groups: orders, rush, catalog, startup, large, durable, memory, rendering, postgres, http.
    """
}
