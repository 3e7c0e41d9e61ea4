/// A command line taken apart: global options, the command, its options and arguments.
///
/// Options may stand before or after the command; `--` ends the options. Each option
/// takes its value from the next argument or after `=` (`--count 2`, `--count=2`).
struct Invocation: Sendable {
  /// The commands, with the options and arguments each takes.
  enum Command: String, Sendable, CaseIterable {
    case shop, menu, stock, order, history, validate, rush

    /// Options the command accepts besides the global ones.
    var options: Set<String> {
      switch self {
      case .order: ["count", "request-id"]
      case .history: ["limit"]
      case .rush: ["shops", "orders", "seed", "threads", "tasks"]
      case .stock: ["if-stock"]
      case .validate: ["catalog"]
      case .shop: ["plain"]
      case .menu: []
      }
    }
  }

  /// Options that take a value, global and per command.
  static let valuedOptions: Set<String> = [
    "recipes", "localization", "store", "lang", "shop", "count", "limit", "shops", "orders", "seed",
    "request-id", "if-stock",
  ]
  /// Options that are flags.
  static let flagOptions: Set<String> = [
    "json", "help", "version", "threads", "tasks", "catalog", "plain",
  ]
  /// Options every command accepts.
  static let globalOptions: Set<String> = [
    "recipes", "localization", "store", "lang", "shop", "json", "help", "version",
  ]

  var command: Command?
  var arguments: [String] = []
  var values: [String: String] = [:]
  var flags: Set<String> = []
  /// The first problem found; parsing goes on so that `--lang` and `--json` still
  /// apply to the message that reports it.
  var problem: CLIError?

  subscript(option: String) -> String? { values[option] }
  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// Takes a command line apart.
  ///
  /// - Parameter arguments: The arguments after the program name.
  static func parse(_ arguments: [String]) -> Invocation {
    var invocation = Invocation()
    var optionsEnded = false
    var index = 0
    var positionals: [String] = []
    func record(_ problem: CLIError) {
      if invocation.problem == nil { invocation.problem = problem }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" || isNegativeNumber(argument) {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" {
        invocation.flags.insert("help")
        continue
      }
      guard argument.hasPrefix("--") else {
        record(.unknownOption(argument))
        continue
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if flagOptions.contains(name) {
        if inlineValue != nil {
          record(.unexpectedValue(option: "--" + name))
        }
        invocation.flags.insert(name)
      } else if valuedOptions.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          record(.missingValue(option: "--" + name))
          continue
        }
        if value.isEmpty {
          record(.emptyValue(option: "--" + name))
          continue
        }
        invocation.values[name] = value
      } else {
        record(.unknownOption(argument))
      }
    }
    if let first = positionals.first {
      if let command = Command(rawValue: first) {
        invocation.command = command
        invocation.arguments = Array(positionals.dropFirst())
      } else {
        record(.unknownCommand(first))
      }
    }
    let command = invocation.command ?? .shop
    let given = Set(invocation.values.keys).union(invocation.flags)
    for option in given.sorted()
    where !globalOptions.contains(option) && !command.options.contains(option) {
      record(.optionNotApplicable(option: "--" + option, command: command.rawValue))
    }
    return invocation
  }

  private static func isNegativeNumber(_ argument: String) -> Bool {
    argument.count > 1 && argument.dropFirst().allSatisfy(\.isASCIIDigitLike)
  }
}

extension Character {
  fileprivate var isASCIIDigitLike: Bool {
    isASCII && isNumber
  }
}
