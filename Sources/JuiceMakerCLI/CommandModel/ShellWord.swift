/// A word of a command line as a POSIX shell reads it: the shell's quoting rules, both
/// ways.
///
/// The completion scripts pass the words of the line being completed to
/// ``CompletionCandidates`` as typed; `unquoted(_:home:)` reads them as a POSIX shell
/// would, so that `--recipes ~/my\ packs` and `--recipes "~/my packs"` name the directories
/// the command will be given. Nothing is evaluated: variables and command substitutions stay
/// as written. `quoted(_:)` writes a word a message suggests so the shell reads it back
/// unchanged.
enum ShellWord {
  /// `word` as is when the shell takes it literally, else in single quotes:
  /// `postgresql:///juice?host=/tmp&port=5499` becomes
  /// `'postgresql:///juice?host=/tmp&port=5499'`, and `it's` becomes `'it'\''s'`.
  static func quoted(_ word: String) -> String {
    let literal =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "@%+=:,./_-".unicodeScalars.contains(scalar))
      }
    if literal { return word }
    return "'" + word.replacing("'", with: #"'\''"#) + "'"
  }

  /// The word with its quoting removed and a leading tilde expanded.
  ///
  /// - A backslash outside quotes makes the next character literal; before a line break,
  ///   both are removed.
  /// - Text in single quotes is literal.
  /// - In double quotes, a backslash escapes only `$`, `` ` ``, `"`, `\` and a line break.
  /// - An unquoted `~` that starts the word and is followed by `/` or nothing is `home`;
  ///   `~user` stays as written.
  ///
  /// ```swift
  /// ShellWord.unquoted(#"~/my\ packs"#, home: "/home/ana")  // "/home/ana/my packs"
  /// ShellWord.unquoted(#"'it''s'"#, home: nil)              // "its"
  /// ```
  ///
  /// - Parameters:
  ///   - word: The word as typed; an unclosed quote runs to its end.
  ///   - home: The home directory, or `nil` to leave a tilde as written.
  /// - Returns: The word as the command will receive it.
  /// - Complexity: O(*n*) for a word of *n* characters.
  static func unquoted(_ word: String, home: String?) -> String {
    var result = ""
    var characters = word[...]
    if let home, characters.first == "~", characters.dropFirst().first.map({ $0 == "/" }) ?? true {
      result = home
      characters = characters.dropFirst()
    }
    var quote: Character?
    while let character = characters.popFirst() {
      switch (quote, character) {
      case (nil, "'"), (nil, "\""):
        quote = character
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case (nil, "\\"):
        if let next = characters.popFirst(), next != "\n" { result.append(next) }
      case ("\"", "\\"):
        guard let next = characters.first, "$`\"\\\n".contains(next) else {
          result.append(character)
          continue
        }
        characters = characters.dropFirst()
        if next != "\n" { result.append(next) }
      default:
        result.append(character)
      }
    }
    return result
  }
}
