import JuiceMakerKit

/// The hidden entry point the completion scripts call at each completion:
/// `juice-maker __complete KIND [WORD…]`, which prints the juice names, fruit names or
/// languages to offer, one per line.
///
/// The scripts ask instead of carrying a list, so a pack or catalog added after a script was
/// installed completes at once. KIND is `juices`, `fruits` or `languages`. The WORDs are the
/// words of the line being completed after the program name and before the word under the
/// cursor, as typed (``ShellWord`` reads their quoting). They choose the data as the
/// command would: `--recipes`, `--localization` and `--lang` among them, else
/// `JUICE_MAKER_RECIPES`, `JUICE_MAKER_LOCALIZATION` and the language variables, layered over
/// the built-in packs and the user's. Names are in the line's language, ids first.
///
/// It must be the first argument, and it never fails loudly: an unknown KIND, a broken pack
/// or a missing directory prints nothing, nothing goes to standard error, and the exit
/// status is 0. It is not a command, so `--help` does not list it and the parser never sees
/// it.
///
/// ```console
/// $ juice-maker __complete juices --lang ko order
/// strawberry-juice
/// …
/// 딸기쥬스
/// ```
enum CompletionCandidates {
  /// The first argument that selects the entry point.
  static let entryPoint = "__complete"

  /// What the scripts ask for.
  enum Kind: String, Sendable, CaseIterable {
    /// Juice ids, then their names.
    case juices
    /// Fruit ids, then their names, singular and plural.
    case fruits
    /// The languages of the loaded string catalogs.
    case languages
  }

  /// The output of `juice-maker __complete ARGUMENTS…`.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after `__complete`: KIND, then the words.
  ///   - environment: The environment variables.
  /// - Returns: One candidate per line, or nothing.
  static func output(arguments: some Collection<String>, environment: [String: String]) -> String {
    guard let first = arguments.first, let kind = Kind(rawValue: first) else { return "" }
    return candidates(kind, words: Array(arguments.dropFirst()), environment: environment)
      .map { $0 + "\n" }.joined()
  }

  /// The candidates of a kind for a command line.
  ///
  /// - Parameters:
  ///   - kind: What to offer.
  ///   - words: The words before the one being completed, as typed.
  ///   - environment: The environment variables.
  /// - Returns: The candidates without repeats, leaving out any a line cannot hold (empty, or
  ///   with a control character); none when the data cannot be loaded.
  static func candidates(_ kind: Kind, words: [String], environment: [String: String])
    -> [String]
  {
    let configuration = Configuration(environment: environment)
    let home = configuration.homeVariable
    let line = ParsedCommandLine.parse(
      words.map { ShellWord.unquoted($0, home: home) }, commands: Commands.all,
      global: GlobalOptions.all)
    let found: [String]
    do {
      // The line is unfinished, so its problems are not ours; only the data's are.
      let global = try GlobalOptions(line, configuration: configuration)
      // As the command would run: without a broken file of the user's.
      let strings = try DataLayers.loadStringsSkippingBrokenUserCatalogs(
        DataLayers.catalogs(given: global.localization, configuration: configuration),
        cache: configuration.compiledCache
      ).strings
      let localizer = strings.localizer(
        for: configuration.language(given: global.lang))
      switch kind {
      case .languages:
        found = strings.languages
      case .juices:
        let juices = try DataLayers.loadCatalogSkippingBrokenUserPacks(
          DataLayers.packs(given: global.recipes, configuration: configuration),
          cache: configuration.compiledCache
        ).catalog.juices
        found = juices.map(\.id.rawValue) + juices.map { localizer.name(of: $0.id) }
      case .fruits:
        let fruits = try DataLayers.loadCatalogSkippingBrokenUserPacks(
          DataLayers.packs(given: global.recipes, configuration: configuration),
          cache: configuration.compiledCache
        ).catalog.fruits
        found =
          fruits.map(\.id.rawValue)
          + fruits.flatMap { [localizer.name(of: $0.id), localizer.name(of: $0.id, count: 2)] }
      }
    } catch {
      return []
    }
    var seen: Set<String> = []
    return found.filter { candidate in
      !candidate.isEmpty
        && !candidate.unicodeScalars.contains { $0.properties.generalCategory == .control }
        && seen.insert(candidate).inserted
    }
  }
}

// MARK: - Completion

extension Completion {
  /// What the scripts ask ``CompletionCandidates`` for, when the candidates come from the
  /// data rather than from the script.
  var candidates: CompletionCandidates.Kind? {
    switch self {
    case .juice: .juices
    case .fruit: .fruits
    case .language: .languages
    case .none, .directory, .file, .choices: nil
    }
  }
}
