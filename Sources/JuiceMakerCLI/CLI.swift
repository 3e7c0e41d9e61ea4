public import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

/// The `juice-maker` command: parses a command line, runs it, and returns its exit code.
///
/// Everything the command touches comes in through `init`, so tests can run it with
/// their own arguments, environment, input and output.
///
/// ```swift
/// var cli = CLI(arguments: ["--lang", "ko", "order", "strawberry-banana-juice"])
/// exit(cli.run().rawValue)
/// // 딸바쥬스 나왔습니다! 맛있게 드세요!
/// ```
public struct CLI {
  /// The version `--version` prints.
  public static let version = "1.0.0"

  let arguments: [String]
  let environment: [String: String]
  var input: any LineInput
  let output: any TextOutput
  let errorOutput: any TextOutput

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
  /// - Returns: The exit code; see `ExitCode`.
  public mutating func run() -> ExitCode {
    let invocation = Invocation.parse(arguments)
    let json = invocation.has("json")
    let strings: StringCatalog
    do throws(LocalizationError) {
      strings = try DataLayers.loadStrings(
        DataLayers.catalogs(
          given: invocation["localization"] ?? environment["JUICE_MAKER_LOCALIZATION"],
          environment: environment))
    } catch {
      return report(.invalidStrings(error), texts: nil, json: json)
    }
    let language = Localizer.preferredLanguage(
      arguments: invocation["lang"], environment: environment)
    let localizer = strings.localizer(for: language)
    let texts = Texts(localizer: localizer)
    if let warning = localizer.fallbackWarning {
      errorOutput.write(Texts.shown(warning.description) + "\n")
    }
    if let problem = invocation.problem {
      return report(problem, texts: texts, json: json)
    }
    if invocation.has("version") {
      output.write(
        json
          ? JSONOutput.encode(["version": Self.version, "data": DataLayers.builtInVersion])
          : "juice-maker \(Self.version)\n"
            + texts.string("version.data", .string(DataLayers.builtInVersion)) + "\n")
      return .success
    }
    if invocation.has("help") {
      let help = Help.text(for: invocation.command, texts: texts)
      output.write(json ? JSONOutput.encode(["help": help]) : help)
      return .success
    }
    if json, invocation.command ?? .shop == .shop {
      return report(
        .optionNotApplicable(option: "--json", command: "shop"), texts: texts, json: false)
    }
    let context = Context(
      invocation: invocation, environment: environment, strings: strings, texts: texts,
      output: output, errorOutput: errorOutput)
    do throws(CLIError) {
      switch invocation.command ?? .shop {
      case .menu: try MenuCommand(context: context).run()
      case .stock: try StockCommand(context: context).run()
      case .order: try OrderCommand(context: context).run()
      case .history: try HistoryCommand(context: context).run()
      case .validate: try ValidateCommand(context: context).run()
      case .rush: try RushCommand(context: context).run()
      case .shop: try ShopCommand(context: context).run(input: &input)
      }
      return .success
    } catch {
      return report(error, texts: texts, json: json)
    }
  }

  /// Writes an error: a JSON document to standard output with `--json`, else one
  /// message to standard error.
  private func report(_ error: CLIError, texts: Texts?, json: Bool) -> ExitCode {
    if case .alreadyReported(let code) = error { return code }
    let message = texts.map { error.message($0) } ?? error.fallbackMessage
    if json {
      output.write(JSONOutput.encode(ErrorDocument(error: error, message: message)))
    } else {
      errorOutput.write(message + "\n")
    }
    return error.exitCode
  }
}

extension CLIError {
  /// The message when no string catalog could be loaded to say it in the user's language.
  var fallbackMessage: String {
    if case .invalidStrings(let error) = self { return Texts.shown(error.description) }
    return code
  }
}
