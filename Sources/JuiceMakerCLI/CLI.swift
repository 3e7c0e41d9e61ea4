public import FoundationEssentials
import JuiceMakerKit
import JuiceMakerPostgres
import JuiceMakerSQLite
import Synchronization

/// The `juice-maker` command: parses a command line, runs it, and returns its exit code.
///
/// Everything the command touches comes in through `init`, so tests can run it with
/// their own arguments, environment, input and output.
///
/// ```swift
/// let cli = CLI(arguments: ["--lang", "ko", "order", "strawberry-banana-juice"])
/// exit(await cli.run().rawValue)
/// // 딸바쥬스 나왔습니다! 맛있게 드세요!
/// ```
public struct CLI {
  /// The version `--version` prints.
  public static let version = "1.0.0"

  let arguments: [String]
  let environment: [String: String]
  let input: any LineInput
  let output: any TextOutput
  let errorOutput: any TextOutput
  /// The strings the command loaded, kept as long as this value is: `juice-maker` keeps it
  /// until the process exits, which is spared freeing a large menu's strings one by one.
  private let keptStrings = KeptStrings()

  /// Creates a command.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - environment: The environment variables.
  ///   - input: Where `shop` reads its lines.
  ///   - output: Standard output.
  ///   - error: Standard error.
  public init(
    arguments: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    input: any LineInput = StandardInput(),
    output: any TextOutput = FileDescriptorOutput.standardOutput,
    error: any TextOutput = FileDescriptorOutput.standardError
  ) {
    self.arguments = arguments
    self.environment = environment
    self.input = input
    self.output = output
    self.errorOutput = error
  }

  /// Runs the command.
  ///
  /// It runs on the caller's actor and suspends only while a command awaits work it
  /// handed elsewhere (a rush's shops); every other command, the interactive shop
  /// included, runs through without suspending, so from `main.swift` it stays on the main
  /// thread.
  ///
  /// With `__complete` as the first argument it is the completion scripts' hidden entry
  /// point instead (`CompletionCandidates`): it prints candidates or nothing, and succeeds.
  ///
  /// - Returns: The exit code; see `ExitCode`.
  public nonisolated(nonsending) func run() async -> ExitCode {
    if arguments.first == CompletionCandidates.entryPoint {
      output.write(
        CompletionCandidates.output(arguments: arguments.dropFirst(), environment: environment))
      return .success
    }
    var changesStore = false
    let (code, texts, json) = await run(changesStore: &changesStore)
    return finished(code, texts: texts, json: json, changedStore: changesStore)
  }

  /// Runs the command, leaving the check of its output to `finished`.
  private nonisolated(nonsending) func run(changesStore: inout Bool) async -> (
    ExitCode, Texts?, Bool
  ) {
    let line = ParsedCommandLine.parse(
      arguments, commands: Commands.all, global: GlobalOptions.all)
    let json = line.isSet(GlobalOptions.json)
    let configuration = Configuration(environment: environment)
    if let answered = answerVersion(line, configuration: configuration, json: json) {
      return answered
    }
    let language = configuration.language(given: line.text(GlobalOptions.lang.spec))
    // The packs load on another thread while the strings load here.
    let prefetch =
      line.definition.loadsMenu && line.problem == nil
      ? PackPrefetch(
        given: line.text(GlobalOptions.recipes.spec)
          ?? (try? configuration.value(for: GlobalOptions.recipes.spec)).flatMap { $0 },
        configuration: configuration)
      : nil
    let catalogFiles: [DataLayers.File]
    let loaded: (strings: StringCatalog, skipped: [DataLayers.File], problems: LocalizationError?)
    do throws(LocalizationError) {
      // Read before the rest is checked, so every message is in the user's language.
      let given =
        line.text(GlobalOptions.localization.spec)
        ?? (try? configuration.value(for: GlobalOptions.localization.spec)).flatMap { $0 }
      catalogFiles = try DataLayers.catalogs(given: given, configuration: configuration)
      // A broken catalog of the user's is left out with a warning; `validate` reports it.
      loaded = try DataLayers.loadStringsSkippingBrokenUserCatalogs(
        catalogFiles, selection: line.stringSelection(language: language),
        cache: configuration.compiledCache)
    } catch {
      return (report(.invalidStrings(error), texts: nil, json: json), nil, json)
    }
    let strings = loaded.strings
    keptStrings.keep(strings)
    let localizer = strings.localizer(for: language)
    let texts = Texts(localizer: localizer)
    if let warning = localizer.fallbackWarning {
      errorOutput.write(scrubbed(Texts.shown(warning.description)) + "\n")
    }
    let spoken = SpokenTexts()
    do throws(CLIError) {
      if let problem = line.problem { throw problem }
      let global = try GlobalOptions(line, configuration: configuration)
      if global.version {
        writeVersion(texts: texts, json: json)
        return (.success, texts, json)
      }
      if global.help {
        let help =
          line.command == nil
          ? HelpText.overview(commands: Commands.all, texts: texts)
          : HelpText.text(for: line.definition, texts: texts)
        output.write(json ? JSONOutput.encode(["help": help]) : help)
        return (.success, texts, json)
      }
      if json, !line.definition.takesJSON {
        throw .optionNotApplicable(
          option: GlobalOptions.json.spec.spelling, command: line.definition.name)
      }
      _ = try line.checkedArguments()
      var context = Context(
        global: global, configuration: configuration, catalogFiles: catalogFiles, strings: strings,
        texts: texts, output: output, errorOutput: errorOutput)
      context.skippedCatalogProblems = loaded.problems
      context.spokenTexts = spoken
      context.packPrefetch = prefetch
      if let problems = loaded.problems, line.definition.name != ValidateCommand.definition.name {
        context.warnSkipping(
          loaded.skipped, key: "warning.skippedCatalog",
          problems: problems.lines.map { scrubbed(texts.shown($0)) })
      }
      let command = try (line.command ?? ShopCommand.self).init(parsing: line, context: context)
      changesStore = command.changesStore
      var input = input
      try await command.run(input: &input)
      return (.success, texts, json)
    } catch {
      // In the words of the menu the command sold from, published names included.
      let texts = spoken.current ?? texts
      return (report(error, texts: texts, json: json), texts, json)
    }
  }

  /// Answers `--version` from the words built into the binary, before any pack or other
  /// catalog is read, so that it is quick and a broken catalog never stops it: of the built-in
  /// catalogs it builds the one key it shows, in the user's language.
  ///
  /// - Returns: What `run` returns, or `nil` when the command line is not a valid `--version`
  ///   (then the usual path answers it, with every message in the user's language).
  private func answerVersion(
    _ line: ParsedCommandLine, configuration: Configuration, json: Bool
  ) -> (ExitCode, Texts?, Bool)? {
    guard line.isSet(GlobalOptions.version), line.problem == nil,
      (try? GlobalOptions(line, configuration: configuration)) != nil
    else { return nil }
    let language = configuration.language(given: line.text(GlobalOptions.lang.spec))
    let sources = BuiltInData.files.filter { $0.directory == "Localization" }.map(\.source)
    guard
      let strings = try? StringCatalog(
        sources, selection: .language(language, keys: ["version.data", "text.cut"]))
    else { return nil }
    let localizer = strings.localizer(for: language)
    if let warning = localizer.fallbackWarning {
      errorOutput.write(scrubbed(Texts.shown(warning.description)) + "\n")
    }
    let texts = Texts(localizer: localizer)
    writeVersion(texts: texts, json: json)
    return (.success, texts, json)
  }

  /// Writes the version of the program and of its built-in data.
  private func writeVersion(texts: Texts, json: Bool) {
    output.write(
      json
        ? JSONOutput.encode(["version": Self.version, "data": DataLayers.builtInVersion])
        : "juice-maker \(Self.version)\n"
          + texts.string("version.data", .string(DataLayers.builtInVersion)) + "\n")
  }

  /// The exit code once every write is checked: a failed write to standard output or
  /// standard error ends the command with exit 74, said on the stream that still works.
  ///
  /// What the command did to the store stands (the journal is the truth); the message
  /// then says to look at `history`. With `--json`, a failure of standard error alone
  /// adds nothing to the document already written.
  private func finished(_ code: ExitCode, texts: Texts?, json: Bool, changedStore: Bool)
    -> ExitCode
  {
    guard let failure = output.failure ?? errorOutput.failure else { return code }
    let error = CLIError.outputFailed(failure, changedStore: changedStore)
    let message = scrubbed(texts.map { error.message($0) } ?? error.code)
    switch failure.stream {
    case .standardOutput:
      errorOutput.write(message + "\n")
    case .standardError:
      if !json { output.write(message + "\n") }
    }
    return error.exitCode
  }

  /// Writes an error: a JSON document to standard output with `--json`, else one
  /// message to standard error.
  private func report(_ error: CLIError, texts: Texts?, json: Bool) -> ExitCode {
    if case .alreadyReported(let code) = error { return code }
    let message = scrubbed(texts.map { error.message($0) } ?? error.fallbackMessage)
    if json {
      var document = ErrorDocument(error: error, message: message)
      document.problems = document.problems?.map(scrubbed)
      output.write(JSONOutput.encode(document))
    } else {
      errorOutput.write(message + "\n")
    }
    return error.exitCode
  }

  /// `message` without the password of any PostgreSQL URI on the command line or in a
  /// `JUICE_MAKER_*` variable, however the message came to quote it: messages redact the
  /// URIs they quote (`Texts.shown`), and this catches one quoted in another form, such
  /// as a `--localization` URI made into an absolute path.
  private func scrubbed(_ message: String) -> String {
    let variables = environment.filter { $0.key.hasPrefix("JUICE_MAKER_") }.map(\.value)
    return ConnectionURI.scrub(message, ofEveryURIIn: arguments + variables)
  }
}

extension ParsedCommandLine {
  /// The values of the string catalogs the command line needs: the user's language alone for
  /// a command that shows one (see ``CommandDefinition/showsOneLanguage``) and names no juice
  /// or fruit but by what may be its id, without the juices' names when it shows none; else
  /// everything. A juice or fruit given by what turns out to be a name loads every language
  /// then (`Context.stringsInEveryLanguage()`).
  ///
  /// - Parameter language: The user's language, or `nil` for the source language.
  func stringSelection(language: String?) -> StringCatalog.Selection {
    let definition = self.definition
    let namesData = zip(definition.arguments, arguments).contains { spec, argument in
      (spec.completion == .juice || spec.completion == .fruit) && !NameIndex.mayBeID(argument)
    }
    guard definition.showsOneLanguage, !namesData else { return .everything }
    let givenJuices = zip(definition.arguments, arguments).filter { $0.0.completion == .juice }
    return .language(
      language,
      omittedPrefixes: definition.showsJuiceNames && !definition.showsGivenJuicesOnly
        ? [] : [LocalizationKey.juicePrefix],
      keptKeys: definition.showsGivenJuicesOnly
        ? Set(givenJuices.map { LocalizationKey.juicePrefix + $0.1 }) : [])
  }
}

extension CLIError {
  /// The message when no string catalog could be loaded to say it in the user's language.
  var fallbackMessage: String {
    if case .invalidStrings(let error) = self {
      return error.lines.map(Texts.shown).joined(separator: "\n")
    }
    return code
  }
}

extension LocalizationError {
  /// Each problem's sentence, one per line: shown one by one, so that the line breaks
  /// between them are not escaped as the catalog's own text is.
  var lines: [String] { problems.map(\.description) }
}

/// Strings kept alive by the command that loaded them.
private final class KeptStrings: Sendable {
  private let strings = Mutex<StringCatalog?>(nil)

  func keep(_ catalog: StringCatalog) {
    strings.withLock { $0 = catalog }
  }
}
