import Foundation
import JuiceMakerKit

/// Nanoseconds to render the out-of-stock message for two shortages with
/// `Localizer.message(for:)`, in English and in Korean, from the shipped
/// `Localization/` catalogs.
struct RenderingBenchmarks {
  let options: Options
  let paths: Paths

  @MainActor
  func run(into report: inout Report) async throws(BenchmarkError) {
    let strings: StringCatalog
    do {
      strings = try StringCatalog(
        directory: paths.root.appendingPathComponent("Localization", isDirectory: true))
    } catch {
      throw .failed("cannot load Localization/: \(error)")
    }
    let shortages = [
      Shortage(fruit: "strawberry", needed: 16, available: 6),
      Shortage(fruit: "kiwi", needed: 3, available: 2),
    ]
    for language in ["en", "ko"] {
      let name = "rendering.shortage_message_\(language)"
      guard options.wants(name) else { continue }
      let localizer = strings.localizer(for: language)
      Report.note("\(language): \(localizer.message(for: shortages))")
      var length = 0
      let samples = await Throughput.nanoseconds(
        runs: options.runs, duration: options.runDuration, unit: 64
      ) { operations in
        let start = ContinuousClock.now
        for _ in 0..<operations {
          length &+= localizer.message(for: shortages).utf8.count
        }
        return ContinuousClock.now - start
      }
      guard length > 0 else { throw .wrongResult("empty message") }
      report.record(Figure(name, .nanosecondsPerOperation, samples))
    }
  }
}
