/// A word as a POSIX shell reads it back unchanged, for commands a message suggests.
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
}
