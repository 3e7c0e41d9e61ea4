public import FoundationEssentials

extension StringCatalog {
  /// Checks the catalog against the names of an app's data and the keys the app uses.
  ///
  /// For every language of the catalog it reports:
  ///
  /// | Problem | Severity |
  /// | --- | --- |
  /// | a name key missing | error in the source language, else warning |
  /// | a required key missing | error in the source language, else warning |
  /// | a key another language has, missing | warning |
  /// | a malformed or unknown specifier | error |
  /// | a plural variation without `other` | error |
  /// | a plural variation without another category the language needs (`one` in English) | warning |
  /// | a state other than `translated`, an unknown state, an empty value | warning |
  /// | a key with a name prefix that is not a name key | warning |
  ///
  /// Keys marked `shouldTranslate: false` need a value in the source language only.
  ///
  /// - Parameters:
  ///   - nameKeys: The keys that name the app's data, each starting with one of
  ///     `namePrefixes`.
  ///   - namePrefixes: The prefixes of name keys; a key with one that is not in `nameKeys` is
  ///     an unused name.
  ///   - requiredKeys: The message keys the app uses.
  /// - Returns: The issues, ordered by key and then by language (source language first), with
  ///   unused names after the key's other issues.
  /// - Complexity: O(*k* × *l*) for *k* keys in *l* languages, plus the length of the values.
  package func validationIssues(
    nameKeys: Set<String>, namePrefixes: [String], requiredKeys: [String]
  ) -> [LocalizationIssue] {
    issues(
      nameKeys: nameKeys, requiredKeys: Set(requiredKeys), unusedNamePrefixes: namePrefixes)
  }

  /// Checks the catalog alone, as an app's catalogs are checked: no key is required and no
  /// pack is loaded.
  ///
  /// It reports the same problems as ``validationIssues(nameKeys:namePrefixes:requiredKeys:)``
  /// except missing names and unused names, with the same severities, after the warnings of
  /// ``loadIssues``.
  ///
  /// - Returns: The issues, ordered by key and then by language (source language first).
  /// - Complexity: O(*k* × *l*) for *k* keys in *l* languages, plus the length of the values.
  public func validationIssues() -> [LocalizationIssue] {
    issues(nameKeys: [], requiredKeys: [], unusedNamePrefixes: [])
  }

  private func issues(
    nameKeys: Set<String>, requiredKeys required: Set<String>, unusedNamePrefixes: [String]
  ) -> [LocalizationIssue] {
    var issues: [LocalizationIssue] = storage.issues
    var seen: Set<LocalizationIssue> = []
    func report(
      _ severity: LocalizationIssue.Severity, _ language: String?, _ key: String,
      _ problem: LocalizationIssue.Problem
    ) {
      let issue = LocalizationIssue(
        severity: severity, language: language, key: key, problem: problem)
      if seen.insert(issue).inserted {
        issues.append(issue)
      }
    }

    let catalogSource = storage.languageIndices[storage.sourceLanguage] ?? 0
    for key in nameKeys.union(required).union(storage.positions.keys).sorted() {
      let found = storage.entry(forKey: key)
      let entry = found?.entry
      let isName = nameKeys.contains(key)
      // A name or a key the program uses is an identifier, never text to show.
      let isIdentifier = isName || required.contains(key)
      let sourceIndex = entry?.sourceIndex ?? catalogSource
      for index in Self.sourceFirst(storage.languages.indices, source: sourceIndex) {
        let language = storage.languages[index]
        let isSource = index == sourceIndex
        guard isSource || entry?.shouldTranslate != false else { continue }
        guard let found, let entry,
          let localization = storage.value(at: found.position, language: index),
          localization.hasValue,
          !(isSource && entry.keyIsSourceText && isIdentifier)
        else {
          if isSource, let entry, entry.keyIsSourceText, !isIdentifier { continue }
          let severity: LocalizationIssue.Severity = isSource && isIdentifier ? .error : .warning
          report(severity, language, key, isName ? .missingName : .missingString)
          continue
        }
        for issue in localization.issues(
          language: language, checksSpecifiers: entry.takesArguments)
        {
          report(issue.severity, language, key, issue.problem)
        }
      }
      let isNameKey = unusedNamePrefixes.contains { key.hasPrefix($0) }
      if entry != nil, isNameKey, !isName {
        report(.warning, nil, key, .unusedName)
      }
    }
    return issues
  }

  /// Language indices with the source language first, then in order.
  private static func sourceFirst(_ indices: Range<Int>, source: Int) -> [Int] {
    [source] + indices.filter { $0 != source }
  }

  /// Loads catalog files alone and validates them, reporting load errors as issues.
  ///
  /// This is what `juice-maker validate --catalog FILE…` runs, for an app's own catalogs.
  ///
  /// - Parameter files: The catalog files, merged in the order given.
  /// - Returns: Every problem of ``init(contentsOf:)`` as an error issue, or the issues of
  ///   ``validationIssues()``.
  public static func validationIssues(catalogFiles files: [URL]) -> [LocalizationIssue] {
    do {
      return try StringCatalog(contentsOf: files).validationIssues()
    } catch {
      return error.issues
    }
  }

  /// Loads the catalogs in a directory and validates them, reporting load errors as issues.
  ///
  /// - Parameters:
  ///   - directory: The directory, usually `Localization/`.
  ///   - nameKeys: The keys that name the app's data.
  ///   - namePrefixes: The prefixes of name keys.
  ///   - requiredKeys: The message keys the app uses.
  /// - Returns: Every problem of ``init(directory:)`` as an error issue, or the issues of
  ///   ``validationIssues(nameKeys:namePrefixes:requiredKeys:)``.
  package static func validationIssues(
    directory: URL, nameKeys: Set<String>, namePrefixes: [String], requiredKeys: [String]
  ) -> [LocalizationIssue] {
    do {
      let catalog = try StringCatalog(directory: directory)
      return catalog.validationIssues(
        nameKeys: nameKeys, namePrefixes: namePrefixes, requiredKeys: requiredKeys)
    } catch {
      return error.issues
    }
  }
}

extension LocalizationError {
  /// Each problem as an error issue, with the key and language of a key two files define.
  package var issues: [LocalizationIssue] {
    problems.map { problem in
      guard case .duplicateKey(let key, let language, _, _) = problem else {
        return LocalizationIssue(
          severity: .error, language: nil, key: nil, problem: .unloadable(problem))
      }
      return LocalizationIssue(
        severity: .error, language: language, key: key, problem: .unloadable(problem))
    }
  }
}

// MARK: - Checking one localization

extension CatalogLocalization {
  /// Whether any branch of the value itself (not of a substitution) is non-empty.
  fileprivate var hasValue: Bool {
    switch body {
    case .single(let value): !value.text.isEmpty
    case .plural(let forms): forms.branches.contains { !$0.value.text.isEmpty }
    case .set(let values): values.contains { !$0.text.isEmpty }
    }
  }

  /// The problems of the values, states, specifiers, and plural branches.
  ///
  /// - Parameters:
  ///   - language: The language of the localization.
  ///   - checksSpecifiers: Whether the key takes arguments; when not, its values are always
  ///     shown as written and their `%` signs are text.
  fileprivate func issues(
    language: String, checksSpecifiers: Bool
  ) -> [(severity: LocalizationIssue.Severity, problem: LocalizationIssue.Problem)] {
    var issues: [(severity: LocalizationIssue.Severity, problem: LocalizationIssue.Problem)] = []
    for (branch, value) in labelledValues {
      if value.text.isEmpty {
        issues.append((.warning, .emptyValue(branch: branch)))
      }
      switch value.state {
      case "translated":
        break
      case nil, "new", "needs_review", "stale":
        issues.append((.warning, .notTranslated(state: value.state, branch: branch)))
      case let state?:
        issues.append((.warning, .unknownState(state, branch: branch)))
      }
      for (specifier, problem) in value.template.problems where checksSpecifiers {
        issues.append(
          (.error, .malformedSpecifier(specifier: specifier, problem: problem, branch: branch)))
      }
    }
    var pluralForms: [(forms: PluralForms, substitution: String?, takesFractions: Bool)] = []
    if case .plural(let forms) = body {
      pluralForms.append((forms, nil, forms.takesFractions))
    }
    for name in substitutions.keys.sorted() {
      if let substitution = substitutions[name], let forms = substitution.forms {
        let takesFractions = substitution.format?.conversion.isFloatingPoint ?? false
        pluralForms.append((forms, name, takesFractions || forms.takesFractions))
      }
    }
    let used = Set(rule.categories + [.zero, .other])
    for (forms, substitution, takesFractions) in pluralForms {
      for (category, _) in forms.branches where rule.isFromCLDR && !used.contains(category) {
        issues.append(
          (.warning, .unusedPluralCategory(category.rawValue, substitution: substitution)))
      }
      for name in forms.unknownNames {
        issues.append((.warning, .unusedPluralCategory(name, substitution: substitution)))
      }
      for category in rule.neededCategories(takesFractions: takesFractions)
      where forms[category] == nil {
        issues.append(
          (
            category == .other ? .error : .warning,
            .missingPluralBranch(category, substitution: substitution)
          ))
      }
    }
    return issues
  }
}
