import JuiceMakerPostgres

/// A command line taken apart by the command definitions: the command, the options given
/// with their values, and the arguments.
///
/// Options may stand before or after the command; `--` ends the options. An option takes
/// its value from the next argument or after `=` (`--count 2`, `--count=2`); a next
/// argument that is a known option is not taken as a value (`--count --json` is a missing
/// value, and `--json` still applies). Each option may be given once: a repeated one is
/// `CLIError.conflictingOptions`.
struct ParsedCommandLine {
  /// The command, or `nil` when none was named (the shop runs).
  private(set) var command: (any Command.Type)?
  /// The arguments after the command.
  private(set) var arguments: [String] = []
  /// The first problem found; parsing goes on so that `--lang`, `--localization` and
  /// `--json` still apply to the message that reports it.
  private(set) var problem: CLIError?

  private var values: [String: String] = [:]
  private var flags: Set<String> = []
  /// How each option was written, for messages about repeats.
  private var written: [String: String] = [:]

  /// The definition of the command to run: the named one, else the shop's.
  var definition: CommandDefinition { (command ?? ShopCommand.self).definition }

  /// The value given for an option, converted.
  ///
  /// - Returns: The value, or `nil` when the option was not given.
  /// - Throws: `CLIError` when the text is not a valid value.
  func value<Value>(_ option: Option<Value>) throws(CLIError) -> Value? {
    guard let text = values[option.spec.name] else { return nil }
    return try option.convert(text)
  }

  /// The text given for an option, unconverted.
  func text(_ spec: OptionSpec) -> String? {
    values[spec.name]
  }

  /// Whether a flag was given.
  func isSet(_ flag: Flag) -> Bool {
    flags.contains(flag.spec.name)
  }

  /// Takes a command line apart and checks it against the definitions.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - commands: Every command.
  ///   - global: The options every command takes.
  static func parse(
    _ arguments: [String], commands: [any Command.Type], global: [OptionSpec]
  ) -> ParsedCommandLine {
    var line = ParsedCommandLine()
    func record(_ problem: CLIError) {
      if line.problem == nil { line.problem = problem }
    }
    var known: [String: OptionSpec] = [:]
    var short: [Character: OptionSpec] = [:]
    for spec in global + commands.flatMap({ $0.definition.options }) {
      known[spec.name] = spec
      if let letter = spec.shortName { short[letter] = spec }
    }
    func isKnown(_ argument: String) -> Bool {
      if argument == "--" { return true }
      if argument.hasPrefix("--") {
        let name = argument.dropFirst(2).prefix { $0 != "=" }
        return known[String(name)] != nil
      }
      return argument.count == 2 && argument.first == "-"
        && argument.last.map { short[$0] != nil }
          == true
    }
    var optionsEnded = false
    var index = 0
    var positionals: [String] = []
    func given(_ spec: OptionSpec, as text: String) -> Bool {
      if let first = line.written[spec.name] {
        record(.conflictingOptions(first, text))
        return false
      }
      line.written[spec.name] = text
      return true
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !looksLikeOption(argument) {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if !argument.hasPrefix("--") {
        if argument.count == 2, let letter = argument.last, let spec = short[letter],
          !spec.takesValue
        {
          if given(spec, as: argument) { line.flags.insert(spec.name) }
        } else {
          record(.unknownOption(argument))
        }
        continue
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let spec = known[name] else {
        record(.unknownOption(argument))
        continue
      }
      guard spec.takesValue else {
        if inlineValue != nil { record(.unexpectedValue(option: spec.spelling)) }
        if given(spec, as: spec.spelling) { line.flags.insert(spec.name) }
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count, !isKnown(arguments[index]) {
        value = arguments[index]
        index += 1
      } else {
        record(.missingValue(option: spec.spelling))
        continue
      }
      guard !value.isEmpty else {
        record(.emptyValue(option: spec.spelling))
        continue
      }
      // A repeated --store is quoted in the usage error: never with its password.
      if given(spec, as: spec.spelling + " " + ConnectionURI.redactingURIs(in: value)) {
        line.values[name] = value
      }
    }
    if let first = positionals.first {
      if let command = commands.first(where: { $0.definition.name == first }) {
        line.command = command
        line.arguments = Array(positionals.dropFirst())
      } else {
        record(.unknownCommand(first))
      }
    }
    let definition = line.definition
    let allowed = Set((global + definition.options).map(\.name))
    for name in line.written.keys.sorted() where !allowed.contains(name) {
      record(.optionNotApplicable(option: "--" + name, command: definition.name))
    }
    for group in definition.exclusive {
      let present = group.filter { line.written[$0.name] != nil }
      if present.count > 1 {
        record(.conflictingOptions(present[0].spelling, present[1].spelling))
      }
    }
    return line
  }

  /// Checks the arguments against the command's: the required ones present, no more than
  /// it takes, each choice one of its words.
  ///
  /// - Returns: The arguments.
  /// - Throws: `CLIError.missingArgument` or `.unexpectedArgument`.
  func checkedArguments() throws(CLIError) -> [String] {
    let definition = self.definition
    let specs = definition.arguments
    let required = specs.prefix { !$0.isOptional }.count
    var command = definition.name
    for (spec, argument) in zip(specs, arguments) where !spec.choices.isEmpty {
      guard spec.choices.contains(argument) else {
        throw .unexpectedArgument(argument, command: command)
      }
      command += " " + argument
    }
    if specs.last?.isVariadic == true, arguments.count >= specs.count - 1 {
      return arguments
    }
    if let first = arguments.first, let count = definition.shorterForms[first] {
      if arguments.count > count {
        throw .unexpectedArgument(arguments[count], command: command)
      }
      if arguments.count < count {
        throw .missingArgument(argument: specs[arguments.count].name, command: command)
      }
      return arguments
    }
    if arguments.count > specs.count {
      throw .unexpectedArgument(arguments[specs.count], command: command)
    }
    if arguments.count < required || (arguments.count > required && arguments.count < specs.count) {
      throw .missingArgument(argument: specs[arguments.count].name, command: command)
    }
    return arguments
  }

  /// Whether an argument is an option rather than a value: it starts with `-`, but is not
  /// `-` alone or a negative number.
  private static func looksLikeOption(_ argument: String) -> Bool {
    guard argument.hasPrefix("-"), argument != "-" else { return false }
    let rest = argument.dropFirst()
    return !(rest.allSatisfy { $0.isASCII && $0.isNumber })
  }
}
