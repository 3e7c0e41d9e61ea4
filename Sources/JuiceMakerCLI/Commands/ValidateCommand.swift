import Foundation
import JuiceMakerKit

/// `juice-maker validate`: checks the packs and the string catalogs together;
/// `juice-maker validate --catalog FILE…` checks the given catalogs alone.
///
/// Errors (exit 65): a malformed pack or catalog, a name missing in the source
/// language, a malformed specifier. Warnings (exit 0): a missing or untranslated
/// string in another language, unused keys.
struct ValidateCommand {
  let context: Context

  /// Every key the command line uses besides names.
  static let requiredKeys = LocalizationKey.messages + CommandLineKey.all

  func run() throws(CLIError) {
    if context.invocation.has("catalog") {
      return try runOnCatalogs()
    }
    _ = try context.arguments([], command: "validate")
    let catalog = try context.loadCatalog()
    let issues = context.strings.validationIssues(
      fruitIDs: catalog.fruits.map(\.id.rawValue), juiceIDs: catalog.juices.map(\.id.rawValue),
      requiredKeys: Self.requiredKeys)
    try report(
      issues,
      summary: { errors, warnings in
        context.texts.string(
          "validate.summary", .int(catalog.fruits.count), .int(catalog.juices.count),
          .int(context.strings.languages.count), .int(errors), .int(warnings))
      })
  }

  /// `validate --catalog FILE…`: the files alone, merged in the order given, without packs.
  private func runOnCatalogs() throws(CLIError) {
    let files = context.invocation.arguments
    guard !files.isEmpty else {
      throw .missingArgument(argument: "FILE", command: "validate --catalog")
    }
    let strings: StringCatalog
    do throws(LocalizationError) {
      strings = try StringCatalog(contentsOf: files.map { URL(fileURLWithPath: $0) })
    } catch {
      throw .invalidStrings(error)
    }
    try report(
      strings.validationIssues(),
      summary: { errors, warnings in
        context.texts.string(
          "validate.catalogSummary", .int(strings.files.count), .int(strings.languages.count),
          .int(errors), .int(warnings))
      })
  }

  /// Prints the issues, errors on the error stream, and fails when there is an error.
  private func report(
    _ issues: [LocalizationIssue], summary: (_ errors: Int, _ warnings: Int) -> String
  ) throws(CLIError) {
    let errors = issues.filter { $0.severity == .error }.count
    let warnings = issues.count - errors
    if context.json {
      context.emit(
        ValidationDocument(
          ok: errors == 0, errors: errors, warnings: warnings,
          issues: issues.map {
            .init(
              severity: $0.severity.rawValue, language: $0.language, key: $0.key,
              message: $0.message)
          }))
    } else {
      for issue in issues {
        let line = Texts.shown(issue.description)
        if issue.severity == .error {
          context.errorOutput.write(line + "\n")
        } else {
          context.say(line)
        }
      }
      context.say(summary(errors, warnings))
    }
    if errors > 0 {
      if context.json { throw .alreadyReported(.dataError) }
      throw .validationFailed(errors: errors)
    }
  }
}

/// `{"ok":…,"errors":…,"warnings":…,"issues":[…]}`.
struct ValidationDocument: Encodable {
  struct Issue: Encodable {
    let severity: String
    let language: String?
    let key: String?
    let message: String
  }

  let ok: Bool
  let errors: Int
  let warnings: Int
  let issues: [Issue]
}
