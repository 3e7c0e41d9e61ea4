import JuiceMakerKit

/// The `--help` texts, one per command, from the string catalog.
enum Help {
  /// `main` for the command overview, then one topic per command.
  static let topics = ["main"] + Invocation.Command.allCases.map(\.rawValue)

  static func text(for command: Invocation.Command?, texts: Texts) -> String {
    texts.localizer.string("help." + (command?.rawValue ?? "main")) + "\n"
  }
}
