/// `juice-maker completions bash|zsh|fish`: prints a shell completion script for the
/// commands and options, which asks the binary for juice and fruit names and languages at
/// each completion (see `CompletionScript`).
struct CompletionsCommand: Command {
  static let definition = CommandDefinition(
    name: "completions",
    arguments: [
      ArgumentSpec(
        name: "SHELL", completion: .choices,
        choices: CompletionScript.Shell.allCases.map(\.rawValue))
    ],
    takesJSON: false, showsOneLanguage: true, showsJuiceNames: false)

  let context: Context
  let shell: CompletionScript.Shell

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    guard let shell = CompletionScript.Shell(rawValue: line.arguments[0]) else {
      throw .unexpectedArgument(line.arguments[0], command: "completions")
    }
    self.shell = shell
  }

  func run(input: inout any LineInput) {
    let script = CompletionScript(definitions: Commands.all.map { $0.definition })
    context.output.write(script.script(for: shell))
  }
}
