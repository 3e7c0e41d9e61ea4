import Foundation
import Testing

/// libpq and libmicrohttpd are loaded only by the commands that use them: without them, every
/// other command runs, and those say which library is missing.
///
/// Each run is in a mount namespace of its own (`unshare -m`) where both libraries are
/// `/dev/null`, so the dynamic loader finds them and cannot load them; that takes the
/// superuser.
@Suite struct MissingLibraryTests {
  @Test func withoutLibpqOrLibmicrohttpdOnlyTheCommandsThatUseThemFailAndSaySo() throws {
    let unshare = "/usr/bin/unshare"
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: unshare) else {
      if ProcessInfo.processInfo.environment["CI"] == "true" {
        Issue.record("hiding the libraries needs the superuser and \(unshare)")
      }
      return
    }
    let pq = try #require(Self.loaderPath(of: "libpq.so.5"), "libpq.so.5 is not installed")
    let http = try #require(
      Self.loaderPath(of: "libmicrohttpd.so.12"), "libmicrohttpd.so.12 is not installed")
    let wrapper = [
      unshare, "-m", "/bin/sh", "-c",
      "mount --bind /dev/null '\(pq)' && mount --bind /dev/null '\(http)' && exec \"$0\" \"$@\"",
    ]
    let workspace = try Workspace("missing-libraries")
    let store = workspace.path("store.sqlite")
    func run(_ arguments: [String]) throws -> JuiceMakerProcess.Outcome {
      try JuiceMakerProcess.run(arguments, in: workspace, through: wrapper)
    }
    let created = try run(["--store", store, "init"])
    #expect(created.status == 0, "\(created)")
    let stock = try run(["--store", store, "stock"])
    #expect(stock.status == 0, "\(stock)")
    #expect(stock.standardOutput.contains("strawberries"), "\(stock)")

    let postgres = try run(["--store", "postgresql://shop:secret@localhost/juice", "stock"])
    #expect(postgres.status == 74, "\(postgres)")
    #expect(
      postgres.standardError.contains(
        "the PostgreSQL client library (libpq.so.5) cannot be loaded"),
      "\(postgres)")
    #expect(!postgres.standardError.contains("secret"), "\(postgres)")

    let serve = try run(["--store", store, "serve", "--listen", "127.0.0.1:0"])
    #expect(serve.status == 74, "\(serve)")
    #expect(
      serve.standardError.contains("the HTTP library (libmicrohttpd.so.12) cannot be loaded"),
      "\(serve)")
  }

  /// Where the dynamic loader finds a library, from `ldconfig -p`.
  private static func loaderPath(of library: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
    process.arguments = ["-p"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    for line in output.split(separator: "\n") where line.contains(library + " ") {
      if let path = line.split(separator: " ").last, path.hasPrefix("/") { return String(path) }
    }
    return nil
  }
}
