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
    let clashes = NameClash.find(in: catalog, strings: context.strings)
    let errors = issues.filter { $0.severity == .error }.count + clashes.count
    let warnings = issues.count + clashes.count - errors
    let texts = context.texts
    if context.json {
      context.emit(
        ValidationDocument(
          ok: errors == 0, errors: errors, warnings: warnings,
          issues: issues.map {
            .init(
              severity: $0.severity.rawValue, language: $0.language, key: $0.key,
              message: $0.message)
          }
            + clashes.map {
              .init(
                severity: "error", language: $0.language, key: nil, message: $0.message(texts))
            }))
    } else {
      // One report on standard output, errors included, and one summary; the exit code
      // tells the outcome.
      for issue in issues {
        context.say(issue.localized(texts))
      }
      for clash in clashes {
        context.say(clash.message(texts))
      }
      context.say(
        texts.string(
          "validate.summary", .int(catalog.fruits.count), .int(catalog.juices.count),
          .int(context.strings.languages.count), .int(errors), .int(warnings)))
    }
    if errors > 0 {
      throw .alreadyReported(.dataError)
    }
  }
}

/// One display name that several juices, or several fruits, have in one language: ordering or
/// editing by that name is ambiguous.
struct NameClash: Sendable, Equatable {
  /// Juices or fruits.
  enum Kind: String, Sendable {
    case juice, fruit
  }

  let kind: Kind
  let language: String
  let name: String
  let ids: [String]

  /// The report line in the user's language.
  func message(_ texts: Texts) -> String {
    texts.string(
      kind == .juice ? "validate.duplicateJuiceName" : "validate.duplicateFruitName",
      .string(language), .string(texts.shown(name)), .string(texts.localizer.list(ids)))
  }

  /// Every clash of every language, names compared as the command line matches them
  /// (ignoring case and spaces).
  static func find(in catalog: Catalog, strings: StringCatalog) -> [NameClash] {
    var clashes: [NameClash] = []
    for language in strings.languages {
      let localizer = strings.localizer(for: language)
      func collect(_ kind: Kind, _ names: [(id: String, names: [String])]) {
        var owners: [String: (shown: String, ids: [String])] = [:]
        var order: [String] = []
        for (id, forms) in names {
          for form in Set(forms) {
            let key = NameIndex.normalized(form)
            if owners[key] == nil {
              owners[key] = (form, [])
              order.append(key)
            }
            if owners[key]?.ids.contains(id) == false { owners[key]?.ids.append(id) }
          }
        }
        for key in order {
          guard let owner = owners[key], owner.ids.count > 1 else { continue }
          clashes.append(
            NameClash(kind: kind, language: language, name: owner.shown, ids: owner.ids.sorted()))
        }
      }
      collect(
        .juice,
        catalog.juices.map { ($0.id.rawValue, [localizer.name(of: $0.id)]) })
      collect(
        .fruit,
        catalog.fruits.map { fruit in
          (
            fruit.id.rawValue,
            [localizer.name(of: fruit.id), localizer.name(of: fruit.id, count: 2)]
          )
        })
    }
    return clashes
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
