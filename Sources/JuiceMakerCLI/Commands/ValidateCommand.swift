import JuiceMakerKit

/// `juice-maker validate`: checks the packs and the string catalogs together.
///
/// Errors (exit 65): a malformed pack or catalog, a name missing in the source
/// language, a malformed specifier. Warnings (exit 0): a missing or untranslated
/// string in another language, unused keys.
struct ValidateCommand: Command {
  static let definition = CommandDefinition(name: "validate")

  let context: Context

  init(parsing line: ParsedCommandLine, context: Context) {
    self.context = context
  }

  /// Every key the command line uses besides names.
  static let requiredKeys = LocalizationKey.messages + CommandLineKey.all

  func run(input: inout any LineInput) throws(CLIError) {
    let catalog = try context.loadCatalog()
    let issues = context.strings.validationIssues(
      fruitIDs: catalog.fruits.map(\.id.rawValue), juiceIDs: catalog.juices.map(\.id.rawValue),
      requiredKeys: Self.requiredKeys)
    let errors = issues.filter { $0.severity == .error }.count
    let warnings = issues.count - errors
    let texts = context.texts
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
      context.say(
        texts.string(
          "validate.summary", .int(catalog.fruits.count), .int(catalog.juices.count),
          .int(context.strings.languages.count), .int(errors), .int(warnings)))
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
