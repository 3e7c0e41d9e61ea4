import FoundationEssentials
import JuiceMakerCatalog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tokens `serve --token-file` reads: one per line, each optionally followed by the
/// roles it grants (`staff`, `counter`), separated by spaces; a line holding only a
/// token grants every role. Blank lines and lines starting with `#` are skipped.
///
/// ```
/// # the counter tablets
/// 3f9c2a7e51d04b8e9a6c counter
/// # the manager
/// b71e0d94c2a84f6f8e13 staff counter
/// ```
struct TokenFile: Sendable {
  /// One token and its roles.
  struct Entry: Sendable {
    let token: String
    let roles: Set<AccessRole>
  }

  /// The shortest token accepted.
  static let minimumLength = 16

  let entries: [Entry]

  /// Reads a token file.
  ///
  /// - Throws: `CLIError.tokenFileMode` when group or others may read or write it (it
  ///   must have mode 0600 or stricter), `.unreadableFile` when it cannot be read,
  ///   `.invalidTokenFile` naming the line (never the token) of a bad line.
  init(path: String) throws(CLIError) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw .unreadableFile(
        path: path, option: "--token-file", reason: String(cString: strerror(errno)))
    }
    let mode = status.st_mode & 0o777
    if mode & 0o077 != 0 {
      throw .tokenFileMode(path: path, mode: String(mode, radix: 8))
    }
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw .unreadableFile(path: path, option: "--token-file", reason: FailureReason.of(error))
    }
    var entries: [Entry] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      guard let token = words.first, !token.hasPrefix("#") else { continue }
      guard token.count >= Self.minimumLength,
        token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
      else {
        throw .invalidTokenFile(path: path, line: number + 1, reason: .shortToken)
      }
      var roles: Set<AccessRole> = []
      for word in words.dropFirst() {
        guard let role = AccessRole(rawValue: String(word)) else {
          throw .invalidTokenFile(path: path, line: number + 1, reason: .unknownRole)
        }
        roles.insert(role)
      }
      entries.append(
        Entry(token: String(token), roles: roles.isEmpty ? Set(AccessRole.allCases) : roles))
    }
    guard !entries.isEmpty else {
      throw .invalidTokenFile(path: path, line: 0, reason: .noToken)
    }
    self.entries = entries
  }
}

/// What is wrong with a token file.
enum TokenFileProblem: String, Sendable {
  /// A token shorter than `TokenFile.minimumLength`, or with a character that is not
  /// printable ASCII.
  case shortToken
  /// A role other than `staff` and `counter`.
  case unknownRole
  /// The file holds no token.
  case noToken
}
