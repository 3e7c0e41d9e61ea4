import Foundation
import JuiceMakerKit
import Testing

/// Runs one corpus case through the built `juice-maker` and checks the contract.
enum CorpusRunner {
  /// Sets up the case's workspace, runs the command, and checks the exit code, the
  /// message, the absence of a crash, and that the store is unchanged.
  static func run(_ item: CorpusCase) throws {
    let workspace = try Workspace(item.name)
    let layout = CorpusGenerator.Layout(workspace: workspace)
    let fileManager = FileManager.default
    let caseDirectory = Paths.corpus.appendingPathComponent(
      item.input ?? "\(item.kind.directory)/\(item.name)")
    let hasFiles = fileManager.fileExists(atPath: caseDirectory.path)

    try fileManager.createDirectory(atPath: layout.recipes, withIntermediateDirectories: true)
    let userLayer = item.userLayer ?? false
    if item.kind != .pack || (item.shippedPacks ?? false) || userLayer {
      try workspace.copyFiles(of: Paths.recipes, to: "recipes")
    }
    if item.kind == .pack, hasFiles {
      try workspace.copyFiles(
        of: caseDirectory, to: userLayer ? "home/.config/juice-maker/recipes" : "recipes")
    }
    try workspace.copyFiles(of: Paths.localization, to: "localization")
    if item.kind == .catalog, hasFiles {
      if userLayer {
        try workspace.copyFiles(of: caseDirectory, to: "home/.config/juice-maker/localization")
      } else {
        try overlay(caseDirectory, on: URL(fileURLWithPath: layout.localization))
      }
    }
    try Stores.seed(at: layout.store)
    var input: [UInt8] = []
    if item.kind == .argument, hasFiles,
      let data = fileManager.contents(atPath: caseDirectory.appendingPathComponent("stdin").path)
    {
      input = [UInt8](data)
    }
    let catalog = try Stores.shippedCatalog()
    let contentsBefore = try? Stores.contents(at: layout.store, catalog: catalog)
    let holder = try item.generate.flatMap { try CorpusGenerator.apply($0, to: layout) }
    let bytesBefore = Stores.bytes(at: layout.store)

    // The layout's options, but not those the case gives itself: an option may be given once.
    let given = item.args.map { expand($0, workspace: workspace) }
    let defaults = [
      ("--recipes", layout.recipes), ("--localization", layout.localization),
      ("--store", layout.store), ("--lang", "en"),
    ]
    let arguments =
      defaults.filter { !given.contains($0.0) }.flatMap { [$0.0, $0.1] } + given
    let outcome: JuiceMakerProcess.Outcome
    do {
      defer { holder?.end() }
      outcome = try JuiceMakerProcess.run(
        arguments, in: workspace, input: input, timeout: .seconds(item.timeout ?? 30))
    }
    let check = {
      expectContract(outcome, for: item)
      if let step = item.generate, step.hasPrefix("cache") {
        let unsound = CorpusGenerator.unsoundCompiledForms(step, layout)
        #expect(unsound.isEmpty, "not compiled again: \(unsound)")
      }
      if item.storeChanges ?? false {
        if item.exit != 0 {
          let after = try? Stores.contents(at: layout.store, catalog: catalog)
          #expect(after?.levels == contentsBefore?.levels, "a refusal changed the stock")
        }
      } else {
        #expect(
          Stores.bytes(at: layout.store) == bytesBefore,
          "the store file changed: \(item.testDescription)")
      }
    }
    if let knownIssue = item.knownIssue {
      withKnownIssue(Comment(rawValue: knownIssue), isIntermittent: false) { check() }
    } else {
      check()
    }
  }

  /// The checks every run must pass: the contract's exit code, a message naming the
  /// input and the problem, no crash, no hang, and output of a sane size.
  static func expectContract(_ outcome: JuiceMakerProcess.Outcome, for item: CorpusCase) {
    #expect(!outcome.timedOut, "timed out: \(outcome)")
    #expect(outcome.exited, "ended by signal \(outcome.status): \(outcome)")
    #expect(outcome.status == item.exit, "\(outcome)")
    let errorText = outcome.standardError
    if !item.stderr.isEmpty {
      #expect(errorText.contains(item.stderr), "stderr lacks \(item.stderr): \(outcome)")
    }
    if let expected = item.stdout {
      #expect(
        outcome.standardOutput.contains(expected), "stdout lacks \(expected): \(outcome)")
    }
    if item.exit != 0 {
      #expect(!errorText.isEmpty || !outcome.stdout.isEmpty, "no message: \(outcome)")
    }
    expectNoCrashReport(outcome)
    #expect(outcome.stdout.count < 1 << 20, "stdout is \(outcome.stdout.count) bytes")
    #expect(outcome.stderr.count < 1 << 18, "stderr is \(outcome.stderr.count) bytes")
  }

  /// Fails when the output holds a crash report or a stack trace.
  static func expectNoCrashReport(_ outcome: JuiceMakerProcess.Outcome) {
    let output = outcome.standardError + outcome.standardOutput
    for marker in [
      "Fatal error", "Stack dump", "Backtrac", "Swift runtime failure", "*** Signal",
    ] {
      #expect(!output.contains(marker), "output holds \(marker): \(outcome)")
    }
  }

  /// Replaces `{workspace}` and `{long:N}` in an argument.
  private static func expand(_ argument: String, workspace: Workspace) -> String {
    var result = argument.replacingOccurrences(of: "{workspace}", with: workspace.url.path)
    while let start = result.range(of: "{long:"),
      let end = result[start.upperBound...].firstIndex(of: "}"),
      let count = Int(result[start.upperBound..<end])
    {
      result.replaceSubrange(
        start.lowerBound...end, with: String(repeating: "x", count: count))
    }
    return result
  }

  /// Copies a case's catalogs into the localization directory, removing from the
  /// shipped catalogs every key a case catalog defines, so the case's value replaces
  /// the shipped one.
  private static func overlay(_ caseDirectory: URL, on localization: URL) throws {
    let fileManager = FileManager.default
    var replaced: Set<String> = []
    let caseFiles = try fileManager.contentsOfDirectory(atPath: caseDirectory.path)
    for name in caseFiles {
      let data = try Data(contentsOf: caseDirectory.appendingPathComponent(name))
      if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let strings = object["strings"] as? [String: Any]
      {
        replaced.formUnion(strings.keys)
      }
    }
    for name in try fileManager.contentsOfDirectory(atPath: localization.path)
    where !caseFiles.contains(name) {
      let url = localization.appendingPathComponent(name)
      guard
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
          as? [String: Any],
        var strings = object["strings"] as? [String: Any]
      else { continue }
      let before = strings.count
      for key in replaced { strings[key] = nil }
      guard strings.count != before else { continue }
      object["strings"] = strings
      try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
    }
    for name in caseFiles {
      try fileManager.copyItem(
        at: caseDirectory.appendingPathComponent(name),
        to: localization.appendingPathComponent(name))
    }
  }
}
