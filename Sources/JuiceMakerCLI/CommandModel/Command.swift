/// A command of `juice-maker`, declared once: its definition says its name, options and
/// arguments, and parsing, validation, `--help`, JSON usage errors and shell completions
/// all come from it.
///
/// A command reads its typed values from the parsed command line in `init`, so a usage
/// error surfaces before anything is loaded or changed.
protocol Command: SendableMetatype {
  /// The name, options and arguments.
  static var definition: CommandDefinition { get }

  /// Reads the command's values.
  ///
  /// - Parameters:
  ///   - line: The parsed command line, already checked against ``definition``.
  ///   - context: The global options, the data and the streams.
  /// - Throws: `CLIError` for a value that is not valid.
  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError)

  /// Runs the command.
  ///
  /// The requirement is asynchronous so a command can await work it hands to other tasks
  /// or threads (`rush`) instead of blocking a thread until it ends; a command with
  /// nothing to await implements it synchronously. It runs on the caller's actor
  /// (`nonisolated(nonsending)`): in `juice-maker` that is the main thread, where the
  /// interactive shop's blocking reads hold no thread of the cooperative pool.
  ///
  /// - Parameter input: Where an interactive command reads its lines.
  /// - Throws: `CLIError` for what stopped it.
  nonisolated(nonsending) func run(input: inout any LineInput) async throws(CLIError)

  /// Whether running may change the store: when its output then fails, the message says
  /// to look at `history` for what was done.
  var changesStore: Bool { get }
}

// MARK: - Default implementations

extension Command {
  /// A command reads the store unless it says otherwise.
  var changesStore: Bool { false }
}

/// What a command takes: its options besides the global ones, and its arguments.
struct CommandDefinition: Sendable {
  /// The name typed on the command line.
  let name: String
  /// The options it takes besides the global ones.
  var options: [OptionSpec] = []
  /// Its arguments, in order.
  var arguments: [ArgumentSpec] = []
  /// Groups of options of which at most one may be given.
  var exclusive: [[OptionSpec]] = []
  /// Whether it can answer `--json` (an interactive command cannot).
  var takesJSON = true
  /// How many arguments it takes after a first argument that is one of these words, where
  /// that is fewer than `arguments` lists (`stock limits FRUIT` takes no `N`).
  var shorterForms: [String: Int] = [:]
  /// Whether it shows the string catalogs' words in the user's language alone, so that only
  /// that language (with its fallbacks) is loaded for it; a juice or fruit named on its
  /// command line still loads every language, to be found by a name in any of them.
  var showsOneLanguage = false
  /// Whether it may show a juice's name; when not, the names of juices are not loaded for it
  /// (with ``showsOneLanguage``).
  var showsJuiceNames = true
  /// Whether the only juices whose names it shows are those its command line names, so only
  /// their names are loaded for it (with ``showsOneLanguage``), as `order` shows the one it
  /// makes.
  var showsGivenJuicesOnly = false
  /// Whether it loads the packs, so that they are loaded while its strings are
  /// (`PackPrefetch`).
  var loadsMenu = false

  /// The catalog key of the text `--help` shows after the usage line.
  var helpKey: String { "help." + name }
  /// The catalog key of its line in the command list.
  var summaryKey: String { "command." + name }

  /// The arguments as the usage line shows them: `JUICE`, `[add|remove|set FRUIT N]`.
  var argumentSynopsis: String {
    var required: [String] = []
    var optional: [String] = []
    for argument in arguments {
      let shown =
        argument.choices.isEmpty
        ? argument.name + (argument.isVariadic ? "…" : "")
        : argument.choices.joined(separator: "|")
      if argument.isOptional || !optional.isEmpty {
        optional.append(shown)
      } else {
        required.append(shown)
      }
    }
    if !optional.isEmpty { required.append("[" + optional.joined(separator: " ") + "]") }
    return required.joined(separator: " ")
  }

  /// The forms of the command in the command list, with their catalog keys: one per choice
  /// of an optional first argument that has choices (`stock add FRUIT N`).
  var forms: [(synopsis: String, key: String)] {
    guard let first = arguments.first, !first.choices.isEmpty, first.isOptional else {
      let shown = arguments.isEmpty ? name : name + " " + argumentSynopsis
      return [(shown, summaryKey)]
    }
    let rest = arguments.dropFirst().map(\.name)
    return [(name, summaryKey)]
      + first.choices.map { choice in
        (([name, choice] + rest).joined(separator: " "), summaryKey + "." + choice)
      }
  }
}

/// One positional argument.
struct ArgumentSpec: Sendable {
  /// The name help and errors show, such as `JUICE`.
  let name: String
  /// What a shell offers for it.
  var completion: Completion = .none
  /// Whether it may be left out; every argument after an optional one is left out with it.
  var isOptional = false
  /// The words it may be, if it is one of a few.
  var choices: [String] = []
  /// Whether it takes every argument left (`FILE…`); only the last argument may.
  var isVariadic = false
}

/// What a shell completes an option's value or an argument with.
///
/// Languages, juices and fruits depend on the data, so the scripts ask the binary for them
/// at each completion (``CompletionCandidates``); the rest is written into the script.
enum Completion: Sendable, Hashable {
  /// Nothing: the user types it.
  case none
  /// A directory.
  case directory
  /// A file.
  case file
  /// A language of the loaded catalogs.
  case language
  /// A juice id or name.
  case juice
  /// A fruit id or name.
  case fruit
  /// One of the argument's choices.
  case choices
}
