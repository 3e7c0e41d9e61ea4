import CLibPQ
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The libpq password file a connection would read, when libpq would refuse it.
///
/// libpq ignores a password file that is not a regular file or that others may read, and
/// says so by printing a `WARNING` to standard error itself, outside any message the
/// program controls. The connection checks the same rules first: when the file would be
/// refused, it tells libpq to read no password file at all, so libpq prints nothing, and
/// the reason joins the connection's own error message should the server then want a
/// password.
struct PasswordFile: Equatable, Sendable {
  /// The file's path.
  let path: String
  /// Why libpq would not read it.
  let problem: Problem

  /// Why libpq would not read a password file.
  enum Problem: Equatable, Sendable {
    /// It is a directory, a device, or anything else but a regular file.
    case notAFile
    /// Its group or others have some access to it.
    case openToOthers
  }

  /// A `passfile` value that names no file, so libpq reads none and says nothing.
  static let absent = "/dev/null/juice-maker-reads-no-password-file"

  /// The sentence the connection's error message gains.
  var reason: String {
    switch problem {
    case .notAFile:
      "the password file \"\(path)\" was not read: it is not a regular file"
    case .openToOthers:
      "the password file \"\(path)\" was not read: its group or others may access it "
        + "(chmod 600 it)"
    }
  }

  /// The password file libpq would read for `uri` and refuse, or `nil` when it would
  /// read none, or read one without complaint.
  ///
  /// libpq reads the file only when no password is given (in the URI or `PGPASSWORD`);
  /// the file is the URI's `passfile`, else `PGPASSFILE`, else `~/.pgpass`.
  static func unsafe(for uri: ConnectionURI) -> PasswordFile? {
    let options = parameters(of: uri.text)
    if let password = options["password"], !password.isEmpty { return nil }
    if let password = getenv("PGPASSWORD").map({ String(cString: $0) }), !password.isEmpty {
      return nil
    }
    let path: String
    if let given = options["passfile"], !given.isEmpty {
      path = given
    } else if let given = getenv("PGPASSFILE").map({ String(cString: $0) }), !given.isEmpty {
      path = given
    } else if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
      path = home + "/.pgpass"
    } else {
      return nil
    }
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    if status.st_mode & S_IFMT != S_IFREG {
      return PasswordFile(path: path, problem: .notAFile)
    }
    if status.st_mode & (S_IRWXG | S_IRWXO) != 0 {
      return PasswordFile(path: path, problem: .openToOthers)
    }
    return nil
  }

  /// The parameters libpq reads from a URI, by keyword; none when it cannot read it.
  private static func parameters(of text: String) -> [String: String] {
    guard let options = PQconninfoParse(text, nil) else { return [:] }
    defer { PQconninfoFree(options) }
    var parameters: [String: String] = [:]
    var option = options
    while let keyword = option.pointee.keyword {
      if let value = option.pointee.val {
        parameters[String(cString: keyword)] = String(cString: value)
      }
      option += 1
    }
    return parameters
  }
}
