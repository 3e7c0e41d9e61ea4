public import FoundationEssentials
import Synchronization

/// The fruits and juices of every pack in a recipes directory, merged.
///
/// A catalog is plain data: load it once, then share it with any number of
/// `FruitStore` and `JuiceMaker` values.
///
/// ```swift
/// let catalog = try Catalog.load(from: URL(filePath: "Recipes"))
/// print(catalog.juices.map(\.id))
/// // [strawberry-juice, banana-juice, kiwi-juice, pineapple-juice,
/// //  strawberry-banana-juice, mango-juice, mango-kiwi-juice]
/// ```
public struct Catalog: Sendable {
  /// Every fruit, in load order (file-name order of the packs, then written order).
  public let fruits: [Fruit]
  /// Every juice, in load order.
  public let juices: [Juice]
  /// The currency of the menu's prices; `nil` when no pack names one.
  public let currency: Currency?
  /// The pack files the catalog was loaded from, in load order.
  public var packs: [URL] { packPaths.map { URL(fileURLWithPath: $0, isDirectory: false) } }
  /// The pack files as paths; URLs are made only when asked for.
  let packPaths: [String]

  let fruitIndices: [Fruit.ID: Int]
  @usableFromInline let juiceIndices: [Juice.ID: Int]
  /// A number unique to this catalog in this process, so juices it hands out can be
  /// recognised and looked up by position.
  package let serial: Int

  /// Creates a catalog from values, checking them as strictly as a pack.
  ///
  /// Ids are valid by construction (`Fruit.ID(validating:)`); the rest of a pack's
  /// rules are checked here.
  ///
  /// - Parameters:
  ///   - fruits: The fruits, in display order.
  ///   - juices: The juices, in display order; every price in one currency.
  /// - Throws: `CatalogError` listing every duplicate id, unknown fruit, repeated
  ///   ingredient, non-positive count, negative stock, empty recipe and second currency.
  public init(fruits: [Fruit], juices: [Juice]) throws(CatalogError) {
    let pack = Pack(
      file: "<memory>", currency: juices.lazy.compactMap(\.price).first?.currency,
      fruits: fruits, juices: juices.map { ($0.id, $0.ingredients, $0.price) })
    try self.init(merging: [pack], problems: pack.valueProblems(), paths: [])
  }

  /// Merges decoded packs, adding the problems that only show across packs.
  init(merging packs: [Pack], problems: [CatalogError.Problem], paths: [String])
    throws(CatalogError)
  {
    var problems = problems
    let fruitCount = packs.reduce(0) { $0 + $1.fruitEntries.count }
    var fruits: [Fruit] = []
    var fruitIndices: [Fruit.ID: Int] = [:]
    // Where each fruit and juice was defined: its pack, and its place among the pack's entries.
    var fruitOrigins: [(pack: Int, entry: Int)] = []
    fruits.reserveCapacity(fruitCount)
    fruitIndices.reserveCapacity(fruitCount)
    fruitOrigins.reserveCapacity(fruitCount)
    for (packIndex, pack) in packs.enumerated() {
      for (entryIndex, entry) in pack.fruitEntries.enumerated() {
        if let existing = fruitIndices[entry.fruit.id] {
          let origin = fruitOrigins[existing]
          let first = packs[origin.pack]
          problems.append(
            .init(
              file: pack.file, path: "\(entry.path).id",
              reason: .duplicateFruit(
                entry.fruit.id, firstFile: first.file,
                firstPath: first.fruitEntries[origin.entry].path)))
          continue
        }
        fruitIndices[entry.fruit.id] = fruits.count
        fruits.append(entry.fruit)
        fruitOrigins.append((packIndex, entryIndex))
      }
    }
    var currency: (value: Currency, file: String)?
    for pack in packs {
      guard let packCurrency = pack.currency else { continue }
      if let first = currency, first.value != packCurrency {
        problems.append(
          .init(
            file: pack.file, path: "currency",
            reason: .currencyConflict(
              packCurrency.code, first: first.value.code, firstFile: first.file)))
      } else if currency == nil {
        currency = (packCurrency, pack.file)
      }
    }
    let serial = Catalog.nextSerial.add(1, ordering: .relaxed).newValue
    let juiceCount = packs.reduce(0) { $0 + $1.juiceEntries.count }
    var juices: [Juice] = []
    var juiceIndices: [Juice.ID: Int] = [:]
    var juiceOrigins: [(pack: Int, entry: Int)] = []
    juices.reserveCapacity(juiceCount)
    juiceIndices.reserveCapacity(juiceCount)
    juiceOrigins.reserveCapacity(juiceCount)
    for (packIndex, pack) in packs.enumerated() {
      for (entryIndex, entry) in pack.juiceEntries.enumerated() {
        let existing = juiceIndices[entry.id]
        if let existing {
          let origin = juiceOrigins[existing]
          let first = packs[origin.pack]
          problems.append(
            .init(
              file: pack.file, path: "\(entry.path).id",
              reason: .duplicateJuice(
                entry.id, firstFile: first.file,
                firstPath: first.juiceEntries[origin.entry].path)))
        }
        // Checked for a redefined juice too, so one pass reports every problem of the pack.
        for (k, ingredient) in entry.ingredients.enumerated()
        where fruitIndices[ingredient.fruit] == nil {
          problems.append(
            .init(
              file: pack.file, path: "\(entry.ingredientPath(k)).fruit",
              reason: .unknownFruit(ingredient.fruit)))
        }
        if existing != nil { continue }
        juiceIndices[entry.id] = juices.count
        juices.append(
          Juice(
            id: entry.id, ingredients: entry.ingredients, price: entry.price,
            position: Juice.Handle(catalog: serial, index: juices.count)))
        juiceOrigins.append((packIndex, entryIndex))
      }
    }
    guard problems.isEmpty else { throw CatalogError(problems: Self.abridged(problems)) }
    self.fruits = fruits
    self.juices = juices
    self.currency = currency?.value
    self.fruitIndices = fruitIndices
    self.juiceIndices = juiceIndices
    self.packPaths = paths
    self.serial = serial
  }

  private static let nextSerial = Atomic<Int>(0)

  /// At most `PackDecoder.maximumProblems` problems of each file, then one
  /// `moreProblems` per file counting the rest, so a hostile pack cannot bury the
  /// report under millions of lines.
  private static func abridged(_ problems: [CatalogError.Problem]) -> [CatalogError.Problem] {
    var listed: [String: Int] = [:]
    var unlisted: [(file: String, count: Int)] = []
    var unlistedIndices: [String: Int] = [:]
    var result: [CatalogError.Problem] = []
    for problem in problems {
      var extra = 0
      if case .moreProblems(let count) = problem.reason {
        extra = count
      } else if listed[problem.file, default: 0] < PackDecoder.maximumProblems {
        listed[problem.file, default: 0] += 1
        result.append(problem)
        continue
      } else {
        extra = 1
      }
      if let index = unlistedIndices[problem.file] {
        unlisted[index].count += extra
      } else {
        unlistedIndices[problem.file] = unlisted.count
        unlisted.append((problem.file, extra))
      }
    }
    for (file, count) in unlisted {
      result.append(.init(file: file, path: "", reason: .moreProblems(count: count)))
    }
    return result
  }

  // MARK: - Lookup

  /// The fruit with the given id, if the catalog has it.
  public func fruit(_ id: Fruit.ID) -> Fruit? {
    fruitIndices[id].map { fruits[$0] }
  }

  /// The juice with the given id, if the catalog has it.
  public func juice(_ id: Juice.ID) -> Juice? {
    juiceIndices[id].map { juices[$0] }
  }

  /// The position of a juice in `juices`, found in constant time for juices this
  /// catalog handed out.
  @usableFromInline
  package func index(of juice: Juice) -> Int? {
    if let position = juice.position, position.catalog == serial {
      return position.index
    }
    guard let index = juiceIndices[juice.id], juices[index] == juice else { return nil }
    return index
  }

  /// The position of a juice id in `juices`: inlined into a shop's order by id.
  @inlinable
  package func index(of id: Juice.ID) -> Int? {
    juiceIndices[id]
  }

  /// The handle of a juice on the menu, for the order path.
  ///
  /// - Parameter id: The juice's id.
  /// - Returns: The handle, or `nil` when the menu has no such juice.
  public func handle(of id: Juice.ID) -> Juice.Handle? {
    juiceIndices[id].map { Juice.Handle(catalog: serial, index: $0) }
  }
}
