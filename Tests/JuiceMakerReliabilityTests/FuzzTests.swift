import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerCatalog
@testable import JuiceMakerLocalization

/// Seeded mutation fuzzing of the pack loader and the string catalog, in process.
///
/// Every run makes the same inputs from the same seed; set `JUICE_MAKER_FUZZ_SEED`
/// for other ones, `JUICE_MAKER_FUZZ_ITERATIONS` for more, and
/// `JUICE_MAKER_FUZZ_SECONDS` for a longer time budget per loop (40 s).
///
/// The property: nothing crashes, failures are typed and located, what loads is
/// valid, rendering always gives text, and validation reports every specifier that
/// rendering could not render in a key that takes arguments. A failing input is printed, escaped, ready to become
/// a corpus case. For coverage-guided fuzzing of the same code with libFuzzer, see
/// `Fuzz/fuzz.sh`.
struct FuzzTests {
  static let seed =
    UInt64(ProcessInfo.processInfo.environment["JUICE_MAKER_FUZZ_SEED"] ?? "")
    ?? 0x4A4D_4B52
  static let scale =
    Int(ProcessInfo.processInfo.environment["JUICE_MAKER_FUZZ_ITERATIONS"] ?? "")
    ?? 20_000

  /// Valid packs to mutate: the shipped ones and a few that use every feature.
  static let packSeeds: [[UInt8]] = {
    var seeds = ["fruits.json", "juices.json"].compactMap {
      FileManager.default.contents(atPath: Paths.recipes.appendingPathComponent($0).path)
        .map { [UInt8]($0) }
    }
    seeds += [
      #"{"fruits": [{"id": "a", "stock": 0}, {"id": "b-2"}], "juices": []}"#,
      #"{"juices": [{"id": "x", "ingredients": [{"fruit": "a", "count": 9223372036854775807}]}]}"#,
      "\u{FEFF}{\"fruits\": [{\"id\": \"k\\u0069wi\", \"stock\": 1}]}\n",
      #"{"fruits": [], "juices": [{"id": "j", "ingredients": [{"count": 1, "fruit": "b"}]}]}"#,
    ].map { Array($0.utf8) }
    return seeds
  }()

  @Test func mutatedPacksDecodeOrFailWithLocatedProblems() {
    var mutator = Mutator(seed: Self.seed)
    var failures = FuzzFailures("pack decoder")
    var tally = [String: Int]()
    var budget = FuzzBudget(iterations: Self.scale)
    while let iteration = budget.next() {
      let base = Self.packSeeds[iteration % Self.packSeeds.count]
      // Half the inputs stay well-formed, to reach the decoder behind the parser.
      let input =
        iteration % 2 == 0
        ? mutator.mutate(base, others: Self.packSeeds)
        : (0...mutator.int(below: 3)).reduce(base) { bytes, _ in mutator.mutateToken(bytes) }
      let (pack, problems) = PackDecoder.decode(input, file: "fuzz.json")
      let parsed: Bool
      do {
        _ = try JSONParser.parse(input)
        parsed = true
      } catch {
        parsed = false
        if error.line < 1 || error.column < 1 || error.reason.isEmpty {
          failures.record("bad failure location \(error)", input)
        }
      }
      tally[parsed ? (problems.isEmpty ? "valid" : "invalid") : "malformed", default: 0] += 1
      if !parsed, problems.count != 1 {
        failures.record("malformed JSON gave \(problems.count) problems", input)
      }
      if parsed,
        problems.contains(where: { if case .malformedJSON = $0.reason { true } else { false } })
      {
        failures.record("parsed JSON reported as malformed", input)
      }
      if problems.count > PackDecoder.maximumProblems + 1 {
        failures.record("\(problems.count) problems listed", input)
      }
      for problem in problems
      where problem.description.isEmpty || problem.description.utf8.count > 2_000 {
        failures.record("problem description of \(problem.description.utf8.count) bytes", input)
      }
      for entry in pack.fruits
      where (try? Fruit.ID(validating: entry.fruit.id.rawValue)) == nil
        || entry.fruit.initialStock < 0
      {
        failures.record("invalid fruit accepted: \(entry.fruit)", input)
      }
      for entry in pack.juices {
        let fruits = entry.ingredients.map(\.fruit)
        if (try? Juice.ID(validating: entry.id.rawValue)) == nil || fruits.isEmpty
          || Set(fruits).count != fruits.count
          || entry.ingredients.contains(where: { $0.count < 1 })
        {
          failures.record("invalid juice accepted: \(entry.id)", input)
        }
      }
      if parsed, !Self.foundationAccepts(input), !Self.hasNumberBeyondDouble(input) {
        failures.record("the parser takes what Foundation refuses as JSON", input)
      }
    }
    print("fuzz: \(budget) pack mutations (seed \(Self.seed)): \(tally)")
    failures.expectNone()
  }

  /// Whether Foundation reads `input` as JSON. It is the oracle for one direction
  /// only: the strict parser refuses more on purpose (duplicate keys, trailing
  /// commas, which Foundation takes, and deep nesting).
  static func foundationAccepts(_ input: [UInt8]) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])) != nil
  }

  /// Whether the document holds a number `Double` cannot hold, which Foundation
  /// refuses and the strict parser keeps as written for the decoder to judge.
  static func hasNumberBeyondDouble(_ input: [UInt8]) -> Bool {
    guard let root = try? JSONParser.parse(input) else { return false }
    var stack = [root]
    while let node = stack.popLast() {
      switch node.value {
      case .object(let members): stack += members.map(\.node)
      case .array(let elements): stack += elements
      case .number(let text): if Double(text)?.isFinite != true { return true }
      default: break
      }
    }
    return false
  }

  @Test func mutatedPackFilesLoadOrThrowCatalogError() throws {
    let workspace = try Workspace("fuzz-loader")
    var mutator = Mutator(seed: Self.seed &+ 1)
    var failures = FuzzFailures("catalog loader")
    let fruits = Paths.recipes.appendingPathComponent("fruits.json")
    let url = workspace.url.appendingPathComponent("mutated.json")
    var loaded = 0
    var budget = FuzzBudget(iterations: Self.scale / 20)
    while let iteration = budget.next() {
      let base = Self.packSeeds[iteration % Self.packSeeds.count]
      let input =
        iteration % 2 == 0
        ? mutator.mutate(base, others: Self.packSeeds) : mutator.mutateToken(base)
      try Data(input).write(to: url)
      do {
        let catalog = try Catalog.load(packs: [fruits, url])
        loaded += 1
        for juice in catalog.juices
        where juice.ingredients.contains(where: { catalog.fruit($0.fruit) == nil }) {
          failures.record("juice \(juice.id) uses an unknown fruit", input)
        }
      } catch {
        if error.problems.isEmpty { failures.record("an error without problems", input) }
      }
    }
    print("fuzz: \(budget) pack files through Catalog.load(packs:), \(loaded) loaded")
    failures.expectNone()
  }

  /// Every value of the shipped catalogs, to mutate.
  static let catalogValues: [String] = {
    var values: [String] = []
    func collect(_ object: Any) {
      if let dictionary = object as? [String: Any] {
        if let value = dictionary["value"] as? String { values.append(value) }
        dictionary.values.forEach(collect)
      } else if let array = object as? [Any] {
        array.forEach(collect)
      }
    }
    for name in ["Localizable.xcstrings", "CommandLine.xcstrings"] {
      if let data = FileManager.default.contents(
        atPath: Paths.localization.appendingPathComponent(name).path),
        let object = try? JSONSerialization.jsonObject(with: data)
      {
        collect(object)
      }
    }
    // Long texts (the help) add time, not specifiers.
    values = values.filter { $0.utf8.count <= 200 }
    return values.isEmpty ? ["%1$@ %2$lld"] : values
  }()

  static let argumentSets: [[LocalizedArgument]] = [
    [], [.string("Kiwi")], [.int(1)], [.string("Kiwi"), .int(2)], [.int(0), .string("")],
    [.int(Int.min), .int(Int.max), .string("\u{1B}[2J")], [.int(-1), .int(-1), .int(-1)],
    [.double(.nan), .double(-.infinity), .double(-0.0)],
    [.int(4_096), .int(-4_096), .double(.greatestFiniteMagnitude), .int(0x10FFFF)],
    [.double(1.5), .int(Int.min), .double(.leastNonzeroMagnitude), .string("키위")],
  ]

  @Test func mutatedCatalogValuesRenderAndValidateAlike() throws {
    var mutator = Mutator(seed: Self.seed &+ 2)
    var failures = FuzzFailures("catalog values")
    let values = Self.catalogValues.map { Array($0.utf8) }
    var markers = 0
    var budget = FuzzBudget(iterations: Self.scale / 4)
    while let iteration = budget.next() {
      let mutated = (0..<3).map { _ in
        String(
          decoding: mutator.mutate(values[mutator.int(below: values.count)], others: values),
          as: UTF8.self)
      }
      let localization = Self.localization(mutated, shape: iteration % 5, mutator: &mutator)
      let document: [String: Any] = [
        "sourceLanguage": "en",
        "strings": ["k": ["localizations": ["en": localization, "ko": localization]]],
      ]
      let data = try JSONSerialization.data(withJSONObject: document)
      let catalog: StringCatalog
      do {
        catalog = try StringCatalog(data: data)
      } catch {
        failures.record("a well-formed catalog failed to load: \(error)", Array(data))
        continue
      }
      let issues = catalog.validationIssues(fruitIDs: [], juiceIDs: [], requiredKeys: ["k"])
      // A key no value of which takes an argument is shown as written, `%` signs and all, so
      // validation leaves its specifiers alone.
      let checked = catalog.storage.entry(forKey: "k")?.entry.takesArguments == true
      for language in ["en", "ko"] {
        let localizer = catalog.localizer(for: language)
        for arguments in Self.argumentSets {
          let count = [nil, 0, 1, 2, -5, Int.max][mutator.int(below: 6)]
          let text = localizer.rendering("k", arguments: arguments, count: count)
          if text.value.utf8.count > 1 << 20 {
            failures.record("rendered \(text.value.utf8.count) bytes", Array(data))
          }
          for warning in text.warnings {
            guard case .malformedSpecifier(let specifier, let problem) = warning.problem, checked
            else {
              continue
            }
            markers += 1
            let reported = issues.contains { issue in
              guard issue.severity == .error, issue.key == "k",
                case .malformedSpecifier(let found, let foundProblem, _) = issue.problem
              else { return false }
              return found == specifier && foundProblem == problem
            }
            if !reported {
              failures.record(
                "rendering found \(problem) in \(specifier) but validation did not",
                Array(data))
            }
          }
        }
      }
    }
    print(
      "fuzz: \(budget) catalog value mutations, \(Self.argumentSets.count * 2) renderings "
        + "each; \(markers) malformed specifiers rendered as markers")
    failures.expectNone()
  }

  /// One localization in one of five shapes: a string unit, plural variations, a
  /// substitution, device variations, or a string set.
  static func localization(_ values: [String], shape: Int, mutator: inout Mutator)
    -> [String: Any]
  {
    func unit(_ value: String) -> [String: Any] {
      ["stringUnit": ["state": "translated", "value": value]]
    }
    let categories = ["zero", "one", "two", "few", "many", "other"]
    switch shape {
    case 0:
      return unit(values[0])
    case 1:
      var plural: [String: Any] = [:]
      for (index, category) in categories.enumerated() where mutator.int(below: 3) > 0 {
        plural[category] = unit(values[index % values.count])
      }
      return ["variations": ["plural": plural]]
    case 2:
      let specifiers = [
        "lld", "@", "d", "u", "q", "", "%lld", "llu", "f", ".1f", "'.2f", "*d", "2$d", "x",
        values[2],
      ]
      return unit(values[0]).merging([
        "substitutions": [
          "a": [
            "argNum": [1, 2, 0, -1, 99, Int.max][mutator.int(below: 6)],
            "formatSpecifier": specifiers[mutator.int(below: specifiers.count)],
            "variations": [
              "plural": ["one": unit(values[1]), "other": unit(values[2])]
            ],
          ]
        ]
      ]) { $1 }
    case 3:
      return ["variations": ["device": ["mac": unit(values[0]), "iphone": unit(values[1])]]]
    default:
      return ["stringSet": ["state": "", "values": values]]
    }
  }

  @Test func mutatedCatalogFilesLoadOrFailTyped() throws {
    let url = Paths.localization.appendingPathComponent("Localizable.xcstrings")
    let original = try [UInt8](Data(contentsOf: url))
    // A few keys keep each decode fast while covering every shape the file uses.
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(original)) as? [String: Any])
    let strings = try #require(document["strings"] as? [String: Any])
    let kept = strings.filter {
      ["fruit.kiwi", "order.shortage", "order.made.many"].contains($0.key)
    }
    let small = try [UInt8](
      JSONSerialization.data(
        withJSONObject: ["sourceLanguage": "en", "strings": kept], options: [.prettyPrinted]))
    var mutator = Mutator(seed: Self.seed &+ 3)
    var failures = FuzzFailures("catalog files")
    var loaded = 0
    var budget = FuzzBudget(iterations: Self.scale / 4)
    while let iteration = budget.next() {
      let input =
        iteration % 2 == 0
        ? mutator.mutate(small, others: [small, original]) : mutator.mutateToken(small)
      do {
        let catalog = try StringCatalog(data: Data(input), fileName: "Fuzz.xcstrings")
        loaded += 1
        _ = catalog.validationIssues(fruitIDs: ["kiwi"], juiceIDs: [])
        for language in catalog.languages {
          let localizer = catalog.localizer(for: language)
          for key in catalog.keys {
            _ = localizer.string(key, .string("Kiwi"), .int(3))
          }
        }
      } catch {
        if error.description.isEmpty || !error.description.contains("Fuzz.xcstrings") {
          failures.record("error does not name the file: \(error)", input)
        }
      }
    }
    print("fuzz: \(budget) catalog file mutations, \(loaded) loaded")
    failures.expectNone()
  }
}

/// A fuzzing loop's iterations, ended early when the time budget is spent so the
/// suite stays bounded on a slow machine.
struct FuzzBudget: CustomStringConvertible {
  /// 40 s unless `JUICE_MAKER_FUZZ_SECONDS` says otherwise.
  static let time = Duration.seconds(
    Int(ProcessInfo.processInfo.environment["JUICE_MAKER_FUZZ_SECONDS"] ?? "") ?? 40)

  let iterations: Int
  private(set) var done = 0
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant

  init(iterations: Int) {
    self.iterations = iterations
    start = clock.now
  }

  /// The next iteration's number, or `nil` when all are done or time is up.
  mutating func next() -> Int? {
    guard done < iterations, clock.now - start < Self.time else { return nil }
    done += 1
    return done - 1
  }

  var description: String {
    let seconds =
      Double((clock.now - start).components.attoseconds) / 1e18
      + Double((clock.now - start).components.seconds)
    let cut = done < iterations ? " (of \(iterations), cut by the time budget)" : ""
    return "\(done)\(cut) in \(String(format: "%.1f", seconds)) s"
  }
}

/// The inputs that broke a fuzzing property, reported together at the end.
struct FuzzFailures {
  let target: String
  private var failures: [(reason: String, input: [UInt8])] = []
  private var count = 0

  init(_ target: String) {
    self.target = target
  }

  mutating func record(_ reason: String, _ input: [UInt8]) {
    count += 1
    if failures.count < 5 { failures.append((reason, input)) }
  }

  func expectNone(sourceLocation: SourceLocation = #_sourceLocation) {
    for failure in failures {
      let input = String(decoding: failure.input, as: UTF8.self).debugDescription.prefix(2_000)
      Issue.record(
        "\(target): \(failure.reason); input (\(failure.input.count) bytes): \(input)",
        sourceLocation: sourceLocation)
    }
    #expect(count == 0, "\(target): \(count) failing inputs", sourceLocation: sourceLocation)
  }
}
