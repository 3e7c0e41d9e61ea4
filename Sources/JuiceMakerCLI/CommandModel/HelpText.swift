import JuiceMakerKit

/// The `--help` texts, made from the command definitions and the catalog's words.
enum HelpText {
  /// The overview: every command and every global option.
  static func overview(commands: [any Command.Type], texts: Texts) -> String {
    let l = texts.localizer
    let shape = [
      "juice-maker",
      "[" + l.string("help.placeholder.options") + "]",
      "[" + l.string("help.placeholder.command") + "]",
      "[" + l.string("help.placeholder.arguments") + "]",
    ].joined(separator: " ")
    var lines = [l.string("help.title"), "", l.string("help.usage", .string(shape)), ""]
    lines.append(l.string("help.commands"))
    lines += table(
      commands.flatMap { $0.definition.forms }.map { ($0.synopsis, l.string($0.key)) })
    lines.append("")
    lines.append(l.string("help.options"))
    lines += table(GlobalOptions.all.map { ($0.synopsis, l.string($0.helpKey)) })
    lines.append("")
    lines.append(l.string("help.footer"))
    return lines.joined(separator: "\n") + "\n"
  }

  /// One command's help: its usage line, what it does, and its own options.
  static func text(for definition: CommandDefinition, texts: Texts) -> String {
    let l = texts.localizer
    var usage = ["juice-maker", definition.name]
    if !definition.arguments.isEmpty { usage.append(definition.argumentSynopsis) }
    let exclusive = Set(definition.exclusive.flatMap { $0 }.map(\.name))
    for option in definition.options where !exclusive.contains(option.name) {
      usage.append("[" + option.synopsis + "]")
    }
    for group in definition.exclusive {
      usage.append("[" + group.map(\.synopsis).joined(separator: " | ") + "]")
    }
    usage.append("[" + l.string("help.placeholder.options") + "]")
    var lines = [l.string("help.usage", .string(usage.joined(separator: " "))), ""]
    lines.append(l.string(definition.helpKey))
    if !definition.options.isEmpty {
      lines.append("")
      lines.append(l.string("help.options"))
      lines += table(definition.options.map { ($0.synopsis, l.string($0.helpKey)) })
    }
    lines.append("")
    lines.append(l.string("help.globalHint"))
    return lines.joined(separator: "\n") + "\n"
  }

  /// Two columns, the second aligned; its continuation lines are indented to it.
  private static func table(_ rows: [(String, String)]) -> [String] {
    let width = (rows.map(\.0.displayWidth).max() ?? 0) + 2
    return rows.flatMap { left, right in
      right.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
        index, line in
        "  " + (index == 0 ? left : "").padded(to: width) + line
      }
    }
  }
}
