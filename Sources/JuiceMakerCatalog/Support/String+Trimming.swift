extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  package func trimmingWhitespace() -> String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return String(text)
  }

  /// The text without leading and trailing white space and line breaks of any kind.
  package func trimmingWhitespaceAndNewlines() -> String {
    var text = Substring(self)
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }
}
