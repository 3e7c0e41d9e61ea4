import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerKit

/// Finds juices and fruits by id or by any localized name, ignoring case and spaces.
///
/// An id always wins: a text that is a juice's id (or a fruit's) means that juice, even when
/// it is another juice's name in some language too (`validate` reports such a name).
struct NameIndex: Sendable {
  /// Juice positions in the catalog, by folded id.
  private var juiceIDs: [String: Int] = [:]
  /// Juice positions in the catalog, by folded name.
  private var juices: [String: Set<Int>] = [:]
  private var fruitIDs: [String: Fruit.ID] = [:]
  private var fruits: [String: Set<Fruit.ID>] = [:]

  /// Indexes every id and every name of every language of the string catalog.
  init(catalog: Catalog, strings: StringCatalog) {
    let localizers = strings.languages.map { strings.localizer(for: $0) }
    for (index, juice) in catalog.juices.enumerated() {
      juiceIDs[Self.normalized(juice.id.rawValue)] = index
      for localizer in localizers {
        juices[Self.normalized(localizer.name(of: juice.id)), default: []].insert(index)
      }
    }
    for fruit in catalog.fruits {
      fruitIDs[Self.normalized(fruit.id.rawValue)] = fruit.id
      for localizer in localizers {
        for count in [1, 2] {
          fruits[Self.normalized(localizer.name(of: fruit.id, count: count)), default: []]
            .insert(fruit.id)
        }
      }
    }
  }

  /// The juice a name means, as ``juice(named:in:)`` finds it, indexing the names of every
  /// language only when the name is not a juice's id as written.
  ///
  /// - Parameters:
  ///   - name: The juice as given: an id or a name in any language.
  ///   - catalog: The packs.
  ///   - strings: The string catalogs in every language, asked for only to index names.
  /// - Throws: `CLIError.unknownJuice`, `.ambiguousName` listing the candidates, or what
  ///   `strings` throws.
  /// - Complexity: O(1) for an id as written; else O(*n*) in the juices and their names.
  static func juice(
    named name: String, in catalog: Catalog, strings: () throws(CLIError) -> StringCatalog
  ) throws(CLIError) -> Juice {
    try juice(named: name, in: catalog) { () throws(CLIError) in
      try NameIndex(catalog: catalog, strings: strings())
    }
  }

  /// The juice a name means, as ``juice(named:in:)`` finds it, asking for the index only
  /// when the name is not a juice's id as written.
  ///
  /// - Parameter index: The index of the catalog's names, such as one built on first use.
  static func juice(
    named name: String, in catalog: Catalog, index: () throws(CLIError) -> NameIndex
  ) throws(CLIError) -> Juice {
    if let id = try? Juice.ID(validating: name), let juice = catalog.juice(id) { return juice }
    return try index().juice(named: name, in: catalog)
  }

  /// The fruit a name means, as ``fruit(named:)`` finds it, indexing the names of every
  /// language only when the name is not a fruit's id as written.
  ///
  /// - Parameters:
  ///   - name: The fruit as given: an id or a name in any language.
  ///   - catalog: The packs.
  ///   - strings: The string catalogs in every language, asked for only to index names.
  /// - Throws: `CLIError.unknownFruit`, `.ambiguousName` listing the candidates, or what
  ///   `strings` throws.
  /// - Complexity: O(1) for an id as written; else O(*n*) in the fruits and their names.
  static func fruit(
    named name: String, in catalog: Catalog, strings: () throws(CLIError) -> StringCatalog
  ) throws(CLIError) -> Fruit.ID {
    try fruit(named: name, in: catalog) { () throws(CLIError) in
      try NameIndex(catalog: catalog, strings: strings())
    }
  }

  /// The fruit a name means, as ``fruit(named:)`` finds it, asking for the index only when
  /// the name is not a fruit's id as written.
  ///
  /// - Parameter index: The index of the catalog's names, such as one built on first use.
  static func fruit(
    named name: String, in catalog: Catalog, index: () throws(CLIError) -> NameIndex
  ) throws(CLIError) -> Fruit.ID {
    if let id = try? Fruit.ID(validating: name), catalog.fruit(id) != nil { return id }
    return try index().fruit(named: name)
  }

  /// Whether a juice or fruit given as `name` is surely found without the names of every
  /// language: whether it is written as an id is, which is what ``juice(named:in:strings:)``
  /// and ``fruit(named:in:strings:)`` try first.
  static func mayBeID(_ name: String) -> Bool {
    (try? Juice.ID(validating: name)) != nil
  }

  /// The juice a name means: the juice with that id, else the one with that name.
  ///
  /// - Parameter catalog: The catalog the index was made from.
  /// - Throws: `CLIError.unknownJuice`, or `.ambiguousName` listing the candidates.
  func juice(named name: String, in catalog: Catalog) throws(CLIError) -> Juice {
    // An id as written needs no folding.
    if let index = juiceIDs[name] { return catalog.juices[index] }
    let key = Self.normalized(name)
    if let index = juiceIDs[key] { return catalog.juices[index] }
    let matches = juices[key] ?? []
    guard let index = matches.first else { throw .unknownJuice(name) }
    guard matches.count == 1 else {
      throw .ambiguousName(
        name, candidates: matches.map { catalog.juices[$0].id.rawValue }.sorted())
    }
    return catalog.juices[index]
  }

  /// The fruit a name means: the fruit with that id, else the one with that name.
  ///
  /// - Throws: `CLIError.unknownFruit`, or `.ambiguousName` listing the candidates.
  func fruit(named name: String) throws(CLIError) -> Fruit.ID {
    if let id = fruitIDs[name] { return id }
    let key = Self.normalized(name)
    if let id = fruitIDs[key] { return id }
    let matches = fruits[key] ?? []
    guard let id = matches.first else { throw .unknownFruit(name) }
    guard matches.count == 1 else {
      throw .ambiguousName(name, candidates: matches.map(\.rawValue).sorted())
    }
    return id
  }

  /// A name folded for matching: in Unicode normalization form C, lowercased, without
  /// white space, so a name typed decomposed finds the same juice or fruit.
  ///
  /// A name of ASCII letters and precomposed Hangul syllables alone, as almost every name
  /// is, is folded scalar by scalar: such a name is in form C already, and only its ASCII
  /// letters have cases. Any other name takes the general path.
  static func normalized(_ name: String) -> String {
    var folded = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      switch scalar.value {
      case 0x41...0x5A:
        folded.append(Unicode.Scalar(UInt8(scalar.value) | 0x20))
      case 0x09...0x0D, 0x20:
        continue
      case 0x00...0x7F, 0xAC00...0xD7A3:
        folded.append(scalar)
      default:
        return normalizedGenerally(name)
      }
    }
    return String(folded)
  }

  /// ``normalized(_:)`` of any name: form C, lowercased, white space removed.
  static func normalizedGenerally(_ name: String) -> String {
    String(
      name.canonicallyComposed.lowercased().unicodeScalars.filter {
        !$0.properties.isWhitespace
      })
  }
}
