/// Every problem found while loading a recipes directory.
///
/// Loading does not stop at the first problem: all packs are read and every
/// problem is collected, so one run shows the pack author everything to fix. A file
/// with more than 100 problems lists the first 100 and counts the rest in one
/// `moreProblems` problem, so a hostile pack cannot bury the report.
public struct CatalogError: Error, Equatable, Sendable {
  /// The problems, in the order of the files and of the places inside them.
  public let problems: [Problem]

  /// Creates an error from its problems.
  public init(problems: [Problem]) {
    self.problems = problems
  }

  /// One problem: the file, the place inside it, and what is wrong.
  public struct Problem: Equatable, Sendable {
    /// The file (or directory) the problem is in, as a path.
    public let file: String
    /// The JSON path of the offending value, such as `juices[3].ingredients[1].count`;
    /// empty for problems with the whole file or directory.
    public let path: String
    /// What is wrong.
    public let reason: Reason

    /// Creates a problem.
    public init(file: String, path: String, reason: Reason) {
      self.file = file
      self.path = path
      self.reason = reason
    }
  }

  /// What is wrong with a pack or the recipes directory.
  public enum Reason: Equatable, Sendable {
    /// The recipes directory does not exist or is not a directory.
    case directoryMissing
    /// The recipes directory holds no `*.json` pack.
    case noPacks
    /// The file could not be read; `detail` is the system's reason.
    case unreadable(detail: String)
    /// A `*.json` entry is not a regular file: a directory, a FIFO, a socket or a
    /// device.
    case notAFile
    /// The file is not well-formed JSON.
    case malformedJSON(detail: String, line: Int, column: Int)
    /// An object holds a key the format does not define.
    case unknownKey(String)
    /// An object lacks a required key.
    case missingKey(String)
    /// A value has the wrong JSON type.
    case wrongType(expected: String, found: String)
    /// A number is not a whole number (such as `1.5` or `1e400`).
    case notWholeNumber(String)
    /// A whole number does not fit in `Int`.
    case numberOutOfRange(String)
    /// An identifier breaks the rules: lowercase ASCII letters, digits and `-`,
    /// starting with a letter, at most `Fruit.maximumIDLength` bytes.
    case invalidID(String)
    /// A fruit id is defined a second time; `firstFile` and `firstPath` name the first.
    case duplicateFruit(Fruit.ID, firstFile: String, firstPath: String)
    /// A juice id is defined a second time; `firstFile` and `firstPath` name the first.
    case duplicateJuice(Juice.ID, firstFile: String, firstPath: String)
    /// An ingredient names a fruit no pack defines.
    case unknownFruit(Fruit.ID)
    /// The same fruit appears twice in one recipe.
    case repeatedIngredient(Fruit.ID)
    /// An ingredient count is zero or negative.
    case nonPositiveCount(Int)
    /// An initial stock is negative.
    case negativeStock(Int)
    /// A juice has no ingredients.
    case emptyRecipe
    /// The file has more problems than are worth listing; `count` more were found
    /// after the ones listed.
    case moreProblems(count: Int)
    /// A `currency` that is not an ISO 4217 code (three capital letters).
    case invalidCurrency(String)
    /// A juice has a price, but its pack names no `currency`.
    case priceWithoutCurrency
    /// A price that is not an exact amount of the pack's currency.
    case invalidPrice(String, currency: String, reason: Money.ParseError)
    /// A pack names another currency than an earlier pack: a menu has one currency.
    case currencyConflict(String, first: String, firstFile: String)
    /// A fruit's `min` or `par` is below zero.
    case negativeLimit(Int)
    /// A fruit's `par` is below its `min`.
    case parBelowMinimum(minimum: Int, par: Int)
  }
}

// MARK: - CustomStringConvertible

extension CatalogError: CustomStringConvertible {
  /// Every problem, one per line.
  public var description: String {
    problems.map(\.description).joined(separator: "\n")
  }
}

extension CatalogError.Problem: CustomStringConvertible {
  /// `file: path: reason`, leaving out an empty path.
  public var description: String {
    path.isEmpty ? "\(file): \(reason)" : "\(file): \(path.abridgedInProblem): \(reason)"
  }
}

extension CatalogError.Reason: CustomStringConvertible {
  public var description: String {
    switch self {
    case .directoryMissing:
      "the recipes directory does not exist"
    case .noPacks:
      "the recipes directory holds no *.json pack"
    case .unreadable(let detail):
      "cannot be read: \(detail)"
    case .notAFile:
      "is not a regular file, so not a pack"
    case .malformedJSON(let detail, let line, let column):
      "malformed JSON at line \(line), column \(column): \(detail)"
    case .unknownKey(let key):
      "unknown key \"\(key.abridgedInProblem)\""
    case .missingKey(let key):
      "missing key \"\(key.abridgedInProblem)\""
    case .wrongType(let expected, let found):
      "expected \(expected), found \(found.abridgedInProblem)"
    case .notWholeNumber(let text):
      "\(text.abridgedInProblem) is not a whole number"
    case .numberOutOfRange(let text):
      text.hasPrefix("-")
        ? "\(text.abridgedInProblem) is too small" : "\(text.abridgedInProblem) is too large"
    case .invalidID(let id) where id.utf8.count > Fruit.maximumIDLength:
      "invalid id \"\(id.abridgedInProblem)\": an id is at most \(Fruit.maximumIDLength) bytes long"
    case .invalidID(let id):
      "invalid id \"\(id)\": use lowercase ASCII letters, digits and '-', starting with a letter"
    case .duplicateFruit(let id, let firstFile, let firstPath):
      "fruit \"\(id)\" is already defined at \(firstFile): \(firstPath)"
    case .duplicateJuice(let id, let firstFile, let firstPath):
      "juice \"\(id)\" is already defined at \(firstFile): \(firstPath)"
    case .unknownFruit(let id):
      "unknown fruit \"\(id)\": no pack defines it"
    case .repeatedIngredient(let id):
      "fruit \"\(id)\" appears twice in this recipe"
    case .nonPositiveCount(let count):
      "count must be at least 1, found \(count)"
    case .negativeStock(let stock):
      "stock must not be negative, found \(stock)"
    case .emptyRecipe:
      "a juice needs at least one ingredient"
    case .moreProblems(let count):
      "and \(count) more \(count == 1 ? "problem" : "problems") in this file"
    case .invalidCurrency(let code):
      "\"\(code.abridgedInProblem)\" is not an ISO 4217 currency code such as KRW or USD"
    case .priceWithoutCurrency:
      "a price needs the pack's \"currency\", such as \"KRW\""
    case .invalidPrice(let text, let currency, let reason):
      switch reason {
      case .notADecimal: "\"\(text.abridgedInProblem)\" is not a price such as \"4500\" or \"4.50\""
      case .tooManyDecimals: "\"\(text.abridgedInProblem)\" has more decimals than \(currency) has"
      case .tooLarge: "\"\(text.abridgedInProblem)\" is too large"
      }
    case .currencyConflict(let code, let first, let firstFile):
      "currency \(code) differs from \(first), named at \(firstFile): a menu has one currency"
    case .negativeLimit(let value):
      "a limit must not be negative, found \(value)"
    case .parBelowMinimum(let minimum, let par):
      "par \(par) is below the minimum \(minimum)"
    }
  }
}

extension String {
  /// The text cut to its first 64 characters, with its length, so that a hostile
  /// pack cannot make a message megabytes long.
  package var abridgedInProblem: String {
    guard count > 64 else { return self }
    return prefix(64) + "… (\(utf8.count) bytes)"
  }
}
