import JuiceMakerKit

/// Finds juices and fruits by id or by any localized name, ignoring case and spaces.
struct NameIndex: Sendable {
  /// Juice positions in the catalog, by folded name.
  private var juices: [String: Set<Int>] = [:]
  private var fruits: [String: Set<Fruit.ID>] = [:]

  /// Indexes every id and every name of every language of the string catalog.
  init(catalog: Catalog, strings: StringCatalog) {
    let localizers = strings.languages.map { strings.localizer(for: $0) }
    for (index, juice) in catalog.juices.enumerated() {
      juices[Self.normalized(juice.id.rawValue), default: []].insert(index)
      for localizer in localizers {
        juices[Self.normalized(localizer.name(of: juice.id)), default: []].insert(index)
      }
    }
    for fruit in catalog.fruits {
      fruits[Self.normalized(fruit.id.rawValue), default: []].insert(fruit.id)
      for localizer in localizers {
        for count in [1, 2] {
          fruits[Self.normalized(localizer.name(of: fruit.id, count: count)), default: []]
            .insert(fruit.id)
        }
      }
    }
  }

  /// The juice a name means.
  ///
  /// - Parameter catalog: The catalog the index was made from.
  /// - Throws: `CLIError.unknownJuice`, or `.ambiguousName` listing the candidates.
  func juice(named name: String, in catalog: Catalog) throws(CLIError) -> Juice {
    let matches = juices[Self.normalized(name)] ?? []
    guard let index = matches.first else { throw .unknownJuice(name) }
    guard matches.count == 1 else {
      throw .ambiguousName(
        name, candidates: matches.map { catalog.juices[$0].id.rawValue }.sorted())
    }
    return catalog.juices[index]
  }

  /// The fruit a name means.
  ///
  /// - Throws: `CLIError.unknownFruit`, or `.ambiguousName` listing the candidates.
  func fruit(named name: String) throws(CLIError) -> Fruit.ID {
    let matches = fruits[Self.normalized(name)] ?? []
    guard let id = matches.first else { throw .unknownFruit(name) }
    guard matches.count == 1 else {
      throw .ambiguousName(name, candidates: matches.map(\.rawValue).sorted())
    }
    return id
  }

  /// A name folded for matching: lowercased, without white space.
  static func normalized(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { !$0.properties.isWhitespace })
  }
}
