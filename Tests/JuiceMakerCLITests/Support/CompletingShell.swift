import Foundation
import Testing

/// A real bash, zsh or fish with a script of `juice-maker completions SHELL` installed as the
/// README says, asked what it completes at the end of a line.
///
/// The built `juice-maker`'s directory leads `PATH`, so the line's `juice-maker` is the one
/// under test, and the script calls back into it.
///
/// - bash: the script is sourced and its function called with `COMP_WORDS` and `COMP_CWORD`
///   split from the line as bash splits them (at spaces, and at `=`); the result is
///   `COMPREPLY`, as bash would insert it.
/// - zsh: an interactive `zsh -f` in a pseudo-terminal (`zpty`) runs `compinit` with the
///   script in `fpath` as `_juice-maker`, has the line typed with a Tab, and records the
///   matches of every `compadd` (zsh's own matching against the typed prefix).
/// - fish: `fish --no-config` sources the script and prints `complete -C LINE`.
struct CompletingShell: Sendable {
  /// The shells `juice-maker completions` writes scripts for.
  enum Kind: String, Sendable, CaseIterable {
    case bash, zsh, fish
  }

  let kind: Kind
  private let executable: URL
  private let sandbox: Sandbox
  /// The installed script: the file for bash and fish, the `fpath` directory for zsh.
  private let installed: URL

  /// Whether a missing shell fails the test (under `CI=true`) instead of cancelling it.
  static let required = ProcessInfo.processInfo.environment["CI"] == "true"

  /// The shell on `PATH`, if any.
  static func executable(_ kind: Kind) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0) + "/" + kind.rawValue) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Generates the script with the built `juice-maker` and installs it in the sandbox.
  ///
  /// - Throws: When the shell is missing: a failure under `CI=true`, else the test case is
  ///   cancelled with a warning saying how to install the shell.
  init(_ kind: Kind, in sandbox: Sandbox) async throws {
    guard let executable = Self.executable(kind) else {
      let reason = "\(kind.rawValue) is not installed (apt-get install \(kind.rawValue))"
      try #require(!Self.required, "\(reason); CI=true requires every shell")
      // A cancelled case shows as passed; the warning says why it did not run.
      Issue.record("\(reason): skipped", severity: .warning)
      try Test.cancel("\(reason); set CI=true to make this a failure")
    }
    self.kind = kind
    self.executable = executable
    self.sandbox = sandbox
    let generated = try await sandbox.run(["completions", kind.rawValue], useStore: false)
    try #require(generated.status == 0, "\(generated)")
    switch kind {
    case .bash:
      installed = sandbox.directory.appending(path: "juice-maker.bash")
      try Data(generated.stdout.utf8).write(to: installed)
    case .zsh:
      installed = sandbox.directory.appending(path: "zfunc")
      try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
      try Data(generated.stdout.utf8).write(to: installed.appending(path: "_juice-maker"))
    case .fish:
      installed = sandbox.directory.appending(path: "juice-maker.fish")
      try Data(generated.stdout.utf8).write(to: installed)
    }
  }

  /// What the shell completes at the end of a line.
  ///
  /// - Parameters:
  ///   - line: What is typed, ending with the word being completed (empty after a space).
  ///     Words are separated by spaces and hold no quotes; bash alone reads a backslash.
  ///   - environment: Variables to set, or to remove with `nil`, for the shell.
  /// - Returns: The candidates, in the order the shell gives them.
  func completions(of line: String, environment: [String: String?] = [:]) async throws
    -> [String]
  {
    let binary = try #require(Paths.binary, "juice-maker is not built; run swift build")
    var changes = environment
    changes["PATH"] =
      binary.deletingLastPathComponent().path + ":"
      + (sandbox.baseEnvironment["PATH"] ?? "/usr/bin:/bin")
    // As a user's terminal is; bash quotes non-ASCII names as $'…' in the C locale.
    changes["LC_ALL"] = "C.UTF-8"
    let outcome: Outcome
    switch kind {
    case .bash:
      outcome = try await sandbox.run(
        [
          "-c",
          #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _juice_maker; "#
            + #"(( ${#COMPREPLY[@]} )) && printf '%s\n' "${COMPREPLY[@]}"; exit 0"#,
          "bash", installed.path,
        ] + Self.bashWords(line), environment: changes, useStore: false, binary: executable)
    case .zsh:
      let matches = sandbox.directory.appending(path: "zsh-matches-\(UUID().uuidString)")
      changes["JM_FUNCTIONS"] = installed.path
      changes["JM_MATCHES"] = matches.path
      changes["JM_SETUP"] = try writeZshSetup().path
      let run = try await sandbox.run(
        ["-f", "-c", Self.zshDriver, "zsh", line], environment: changes, useStore: false,
        binary: executable)
      #expect(run.status == 0, "\(run)")
      let recorded = (try? Data(contentsOf: matches)).map { String(decoding: $0, as: UTF8.self) }
      return Outcome(status: 0, stdout: recorded ?? "", stderr: "").lines
    case .fish:
      outcome = try await sandbox.run(
        ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", installed.path, line],
        environment: changes, useStore: false, binary: executable)
    }
    #expect(outcome.status == 0, "\(outcome)")
    #expect(outcome.stderr.isEmpty, "\(outcome)")
    // fish prints a description after a tab; the scripts give none.
    return outcome.lines.map { String($0.prefix { $0 != "\t" }) }
  }

  /// The line's words as bash hands them to a completion function, as typed: split at
  /// spaces that no backslash escapes, and at `=`, which is in `COMP_WORDBREAKS` and becomes
  /// a word of its own.
  static func bashWords(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var escaped = false
    for character in line {
      if escaped {
        word.append(character)
        escaped = false
      } else if character == "\\" {
        word.append(character)
        escaped = true
      } else if character == " " || character == "=" {
        if !word.isEmpty { words.append(word) }
        if character == "=" { words.append("=") }
        word = ""
      } else {
        word.append(character)
      }
    }
    return words + [word]
  }

  /// Drives an interactive zsh in a pseudo-terminal: it sources the setup, types the line
  /// and a Tab, and waits until the completion has ended.
  private static let zshDriver = #"""
    zmodload zsh/zpty
    zpty juice zsh -f -i
    zpty -w juice "source ${(q)JM_SETUP}"
    zpty -w -n juice "$1"$'\t'
    zpty -r juice output '*<<completed>>*'
    zpty -d juice
    """#

  /// The interactive zsh's set-up: compinit with the script in `fpath`, Tab bound to
  /// completion, every `compadd`'s matches recorded, and a mark printed when a completion ends.
  private func writeZshSetup() throws -> URL {
    let file = sandbox.directory.appending(path: "setup.zsh")
    try Data(
      #"""
      PS1='' PROMPT='' RPROMPT=''
      fpath=("$JM_FUNCTIONS" $fpath)
      autoload -U compinit && compinit -u -D
      compadd() {
        if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
        local -a matched
        builtin compadd -O matched "$@"
        (( ${#matched} )) && print -rl -- "${matched[@]}" >> "$JM_MATCHES"
        builtin compadd "$@"
      }
      _juice_maker_test_completed() { print -r -- '<<completed>>'; }
      comppostfuncs=(_juice_maker_test_completed)
      bindkey '^I' complete-word
      """#.utf8
    ).write(to: file)
    return file
  }
}
