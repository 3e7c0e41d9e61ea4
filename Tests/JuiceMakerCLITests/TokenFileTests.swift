import Foundation
import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// How `serve --token-file` reads its tokens, and what it refuses.
@Suite(.serialized)
struct TokenFileTests {
  private func file(_ text: String, mode: Int = 0o600) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appending(path: "tokens-\(UUID().uuidString)").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    return path
  }

  @Test func eachLineIsATokenWithItsRolesAndALoneTokenGetsEveryRole() throws {
    let path = try file(
      "# counter tablets\n3f9c2a7e51d04b8e9a6c counter\n\nb71e0d94c2a84f6f8e13\n  \n")
    let tokens = try TokenFile(path: path)
    #expect(tokens.entries.map(\.token) == ["3f9c2a7e51d04b8e9a6c", "b71e0d94c2a84f6f8e13"])
    #expect(tokens.entries.map(\.roles) == [[.counter], [.counter, .staff]])
    let access = AccessControl(tokenFile: tokens, allowedOrigins: [])
    #expect(access.roles(ofToken: "3f9c2a7e51d04b8e9a6c") == [.counter])
    #expect(access.roles(ofToken: "3f9c2a7e51d04b8e9a6") == nil)
    #expect(access.roles(ofToken: "") == nil)
  }

  @Test(arguments: [0o644, 0o640, 0o604, 0o660])
  func aFileOthersMayReadIsRefusedNamingItsMode(mode: Int) throws {
    let path = try file("3f9c2a7e51d04b8e9a6c\n", mode: mode)
    #expect(throws: CLIError.tokenFileMode(path: path, mode: String(mode, radix: 8))) {
      try TokenFile(path: path)
    }
  }

  @Test func aShortTokenAnUnknownRoleAndAnEmptyFileAreRefusedByLine() throws {
    let short = try file("# x\nshort\n")
    #expect(throws: CLIError.invalidTokenFile(path: short, line: 2, reason: .shortToken)) {
      try TokenFile(path: short)
    }
    let role = try file("3f9c2a7e51d04b8e9a6c cashier\n")
    #expect(throws: CLIError.invalidTokenFile(path: role, line: 1, reason: .unknownRole)) {
      try TokenFile(path: role)
    }
    let empty = try file("# nothing\n")
    #expect(throws: CLIError.invalidTokenFile(path: empty, line: 0, reason: .noToken)) {
      try TokenFile(path: empty)
    }
  }

  @Test func theMessagesNeverHoldTheToken() throws {
    let path = try file("3f9c2a7e51d04b8e9a6c cashier\n")
    do {
      _ = try TokenFile(path: path)
      Issue.record("accepted")
    } catch {
      let strings = try StringCatalog(directory: Paths.localization)
      let texts = Texts(localizer: strings.localizer(for: "en"))
      #expect(!error.message(texts).contains("3f9c2a7e"))
    }
  }
}
