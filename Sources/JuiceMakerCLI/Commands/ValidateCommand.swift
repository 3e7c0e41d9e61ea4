import FoundationEssentials
import JuiceMakerKit

/// `juice-maker validate`: checks the packs and the string catalogs together;
/// `juice-maker validate --catalog FILE…` checks the given catalogs alone.
///
/// Errors (exit 65): a malformed pack or catalog (even a user's one the other commands run
/// without), a name missing in the source
/// language, a malformed specifier, a display name two juices or two fruits share in one
/// language. Warnings (exit 0): a missing or untranslated string in another language,
/// unused keys. The report is one list on standard output with one summary.
struct ValidateCommand: Command {
  static let catalogFlag = Flag("catalog")
  static let definition = CommandDefinition(
    name: "validate", options: [catalogFlag.spec],
    arguments: [ArgumentSpec(name: "FILE", completion: .file, isOptional: true, isVariadic: true)])

  let context: Context
  /// The catalog files of `--catalog`, or `nil` to check the packs and catalogs in use.
  let catalogFiles: [String]?

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    if line.isSet(Self.catalogFlag) {
      guard !line.arguments.isEmpty else {
        throw .missingArgument(argument: "FILE", command: "validate --catalog")
      }
      catalogFiles = line.arguments
    } else {
      if let first = line.arguments.first {
        throw .unexpectedArgument(first, command: "validate")
      }
      catalogFiles = nil
    }
  }

  /// Every key the command line uses besides names.
  static let requiredKeys = LocalizationKey.messages + CommandLineKey.all

  func run(input: inout any LineInput) throws(CLIError) {
    if let catalogFiles {
      return try runOnCatalogs(catalogFiles)
    }
    // The store's menu layer is checked too, when the store exists.
    let published = try context.existingPublishedMenu()
    let catalog = try context.loadCatalogStrictly(published: published)
    var strings = context.strings
    var skipped = context.skippedCatalogProblems?.issues ?? []
    if published.files.contains(where: { DataLayers.isCatalog($0.name) }) {
      do throws(LocalizationError) {
        let loaded = try DataLayers.loadStringsSkippingBrokenUserCatalogs(
          DataLayers.catalogs(
            given: context.global.localization, configuration: context.configuration,
            published: published), cache: context.configuration.compiledCache)
        strings = loaded.strings
        skipped = loaded.problems?.issues ?? []
      } catch {
        throw .invalidStrings(error)
      }
    }
    // A user's catalog the program runs without still fails validation.
    let checked = Self.check(catalog, strings)
    try report(
      skipped + checked.issues, clashes: checked.clashes,
      summary: { errors, warnings in
        context.texts.string(
          "validate.summary", .int(catalog.fruits.count), .int(catalog.juices.count),
          .int(strings.languages.count), .int(errors), .int(warnings))
      })
  }

  /// What `validate` finds in packs and catalogs loaded together: the catalogs' issues
  /// for the packs' fruits and juices and the command line's keys, and the names that
  /// clash; `packs publish` refuses a menu with any error among them.
  static func check(_ catalog: Catalog, _ strings: StringCatalog) -> (
    issues: [LocalizationIssue], clashes: [NameClash]
  ) {
    (
      strings.validationIssues(
        fruitIDs: catalog.fruits.map(\.id.rawValue), juiceIDs: catalog.juices.map(\.id.rawValue),
        requiredKeys: requiredKeys),
      NameClash.find(in: catalog, strings: strings)
    )
  }

  /// `validate --catalog FILE…`: the files alone, merged in the order given, without packs.
  private func runOnCatalogs(_ files: [String]) throws(CLIError) {
    let strings: StringCatalog
    do throws(LocalizationError) {
      strings = try StringCatalog(contentsOf: files.map { URL(fileURLWithPath: $0) })
    } catch {
      throw .invalidStrings(error)
    }
    try report(
      strings.validationIssues(), clashes: [],
      summary: { errors, warnings in
        context.texts.string(
          "validate.catalogSummary", .int(strings.files.count), .int(strings.languages.count),
          .int(errors), .int(warnings))
      })
  }

  /// Prints the issues and the summary as one report on standard output, and fails when
  /// there is an error; the exit code tells the outcome.
  private func report(
    _ issues: [LocalizationIssue], clashes: [NameClash],
    summary: (_ errors: Int, _ warnings: Int) -> String
  ) throws(CLIError) {
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
      for issue in issues {
        context.say(issue.localized(texts))
      }
      for clash in clashes {
        context.say(clash.message(texts))
      }
      context.say(summary(errors, warnings))
    }
    if errors > 0 {
      throw .alreadyReported(.dataError)
    }
  }
}

/// One display name that several juices, or several fruits, have in one language, so
/// ordering or editing by that name is ambiguous; or a name that is another juice's (or
/// fruit's) id, so ordering by it finds that other one, since an id always wins.
struct NameClash: Sendable, Equatable {
  /// Juices or fruits.
  enum Kind: String, Sendable {
    case juice, fruit
  }

  let kind: Kind
  let language: String
  let name: String
  /// The juices or fruits with the name.
  let ids: [String]
  /// The other juice's or fruit's id the name spells; `nil` for a name several share.
  var shadowingID: String? = nil

  /// The report line in the user's language.
  func message(_ texts: Texts) -> String {
    if let shadowingID {
      return texts.string(
        kind == .juice ? "validate.juiceNameIsID" : "validate.fruitNameIsID",
        .string(language), .string(texts.shown(name)), .string(texts.localizer.list(ids)),
        .string(shadowingID))
    }
    return texts.string(
      kind == .juice ? "validate.duplicateJuiceName" : "validate.duplicateFruitName",
      .string(language), .string(texts.shown(name)), .string(texts.localizer.list(ids)))
  }

  /// Every clash of every language, names and ids compared as the command line matches
  /// them (ignoring case, spaces and Unicode normalization).
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
        // A name spelling another's id: the id wins, so the name never finds its owner.
        var ids: [String: String] = [:]
        for (id, _) in names { ids[NameIndex.normalized(id)] = id }
        for key in order {
          guard let owner = owners[key], let id = ids[key], !owner.ids.contains(id) else {
            continue
          }
          clashes.append(
            NameClash(
              kind: kind, language: language, name: owner.shown, ids: owner.ids.sorted(),
              shadowingID: id))
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
