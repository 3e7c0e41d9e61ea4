import JuiceMakerKit

/// `juice-maker completions bash|zsh|fish`: prints a shell completion script for the
/// commands, options, and the juice and fruit ids and names of the current packs in the
/// user's language.
struct CompletionsCommand: Command {
  static let definition = CommandDefinition(
    name: "completions",
    arguments: [
      ArgumentSpec(
        name: "SHELL", completion: .choices,
        choices: CompletionScript.Shell.allCases.map(\.rawValue))
    ],
    takesJSON: false)

  let context: Context
  let shell: CompletionScript.Shell

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    guard let shell = CompletionScript.Shell(rawValue: line.arguments[0]) else {
      throw .unexpectedArgument(line.arguments[0], command: "completions")
    }
    self.shell = shell
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let catalog = try context.loadCatalog()
    let localizer = context.texts.localizer
    func unique(_ words: [String]) -> [String] {
      var seen: Set<String> = []
      return words.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
    let script = CompletionScript(
      definitions: Commands.all.map { $0.definition },
      juices: unique(
        catalog.juices.map(\.id.rawValue) + catalog.juices.map { localizer.name(of: $0.id) }),
      fruits: unique(
        catalog.fruits.map(\.id.rawValue)
          + catalog.fruits.flatMap { fruit in
            [localizer.name(of: fruit.id), localizer.name(of: fruit.id, count: 2)]
          }),
      languages: context.strings.languages)
    context.output.write(script.script(for: shell))
  }
}
