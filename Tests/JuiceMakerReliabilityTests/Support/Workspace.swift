import Foundation

/// A fresh directory for one test, removed with everything in it when released.
///
/// It holds a home, a state directory, a working directory and a temporary
/// directory for the child process, so that nothing a test runs can write
/// anywhere else.
final class Workspace {
  /// The directory.
  let url: URL

  init(_ label: String = "case") throws {
    let name = "jm-reliability-\(label.prefix(40))-\(UUID().uuidString.prefix(8))"
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.reduce(into: "") {
        $0.append($1)
      })
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for directory in ["home", "state", "cwd", "tmp"] {
      try FileManager.default.createDirectory(
        at: url.appendingPathComponent(directory), withIntermediateDirectories: true)
    }
  }

  deinit {
    // Whatever a test made unreadable or unwritable must be removable again.
    if let enumerator = FileManager.default.enumerator(atPath: url.path) {
      for case let item as String in enumerator {
        chmod(url.path + "/" + item, 0o700)
      }
    }
    try? FileManager.default.removeItem(at: url)
  }

  /// A path inside the workspace.
  func path(_ relative: String) -> String {
    url.appendingPathComponent(relative).path
  }

  /// The child's environment: nothing inherited but `PATH`, and a home, state and
  /// temporary directory inside the workspace. No `LANG`, `LC_*` or `JUICE_MAKER_*`.
  var environment: [String: String] {
    [
      "PATH": "/usr/bin:/bin",
      "HOME": path("home"),
      "XDG_STATE_HOME": path("state"),
      "TMPDIR": path("tmp"),
    ]
  }

  /// Writes a file, creating its directory.
  func write(_ bytes: [UInt8], to relative: String) throws {
    let file = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: file)
  }

  /// Copies every regular file of `source` into `relative`, creating it.
  func copyFiles(of source: URL, to relative: String) throws {
    let destination = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
      let item = source.appendingPathComponent(name)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: item.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      try FileManager.default.copyItem(at: item, to: destination.appendingPathComponent(name))
    }
  }

  /// Every file and directory under the workspace, relative to it, with the bytes of
  /// regular files.
  func snapshot() -> [String: [UInt8]?] {
    var result: [String: [UInt8]?] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return result }
    for case let item as String in enumerator {
      let full = url.path + "/" + item
      var status = stat()
      guard lstat(full, &status) == 0 else { continue }
      if status.st_mode & S_IFMT == S_IFREG {
        result[item] = FileManager.default.contents(atPath: full).map { [UInt8]($0) }
      } else {
        result[item] = .some(nil)
      }
    }
    return result
  }
}
