/// One option as parsing, help and completions see it.
struct OptionSpec: Sendable, Hashable {
  /// The long name without its dashes: `count` for `--count`.
  let name: String
  /// The placeholder of its value in help (`N`, `DIR`), or `nil` for a flag.
  let metavariable: String?
  /// A one-letter spelling (`-h`).
  var shortName: Character? = nil
  /// What a shell completes its value with.
  var completion: Completion = .none
  /// The environment variable that stands in when the option is not given.
  var environmentVariable: String? = nil

  /// `--count`.
  var spelling: String { "--" + name }
  /// `--count N`, `--help, -h`.
  var synopsis: String {
    var text = spelling
    if let metavariable { text += " " + metavariable }
    if let shortName { text += ", -" + String(shortName) }
    return text
  }
  /// The catalog key of its help line.
  var helpKey: String { "option." + name }
  /// Whether it takes a value.
  var takesValue: Bool { metavariable != nil }
}

/// An option that takes a value, read as `Value`.
struct Option<Value: Sendable>: Sendable {
  /// How it is spelled, helped and completed.
  let spec: OptionSpec
  /// Turns the text given into the value, or names what is wrong with it.
  let convert: @Sendable (String) throws(CLIError) -> Value
}

extension Option where Value == String {
  /// An option whose value is used as text.
  static func text(
    _ name: String, _ metavariable: String, completion: Completion = .none,
    environment: String? = nil
  ) -> Option {
    Option(
      spec: OptionSpec(
        name: name, metavariable: metavariable, completion: completion,
        environmentVariable: environment),
      convert: { text throws(CLIError) in text })
  }
}

extension Option where Value == Int {
  /// An option whose value is a whole number that must follow `rule`.
  static func number(_ name: String, _ rule: Quantity.Rule, metavariable: String = "N")
    -> Option
  {
    Option(
      spec: OptionSpec(name: name, metavariable: metavariable),
      convert: { text throws(CLIError) in try Quantity.parse(text, for: "--" + name, rule) })
  }
}

/// An option that takes no value.
struct Flag: Sendable {
  /// How it is spelled, helped and completed.
  let spec: OptionSpec

  init(_ name: String, shortName: Character? = nil) {
    spec = OptionSpec(name: name, metavariable: nil, shortName: shortName)
  }
}
