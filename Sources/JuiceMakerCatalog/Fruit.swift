/// A fruit the shops use, as a pack defines it.
///
/// Fruits are data: a pack file in the recipes directory lists them with their
/// initial stock. The display name comes from the string catalog under the key
/// `fruit.<id>`.
public struct Fruit: Hashable, Sendable, Identifiable {
  /// The fruit's stable identifier, such as `strawberry`.
  public struct ID: Hashable, Sendable {
    /// The raw identifier as written in the pack.
    public let rawValue: String

    /// Creates an identifier from untrusted text, checking the id rule.
    ///
    /// An id is lowercase ASCII letters, digits and `-`, starts with a letter, and is at
    /// most `Fruit.maximumIDLength` bytes long. Every way into the package (packs,
    /// `Catalog(fruits:juices:)`, stores, storages) builds ids with this initializer, so
    /// an invalid id cannot exist.
    ///
    /// - Parameter text: The id, such as `strawberry`.
    /// - Throws: `IdentifierError` naming the rule the text breaks.
    public init(validating text: String) throws(IdentifierError) {
      try CatalogIdentifier.check(text)
      self.rawValue = text
    }
  }

  /// The fruit's identifier.
  public let id: ID
  /// The stock a new store starts with.
  public let initialStock: Int
  /// The pack's minimum and par levels; `nil` when the pack gives neither, and the fruit
  /// is never low. A store may override them (`FruitStore.limits()`).
  public let limits: StockLimits?

  /// Creates a fruit.
  ///
  /// - Parameters:
  ///   - id: The fruit's identifier.
  ///   - initialStock: The stock a new store starts with; 10 by default.
  ///   - limits: The minimum and par levels; `nil` for none.
  public init(
    id: ID, initialStock: Int = Fruit.defaultInitialStock, limits: StockLimits? = nil
  ) {
    self.id = id
    self.initialStock = initialStock
    self.limits = limits
  }

  /// The initial stock of a fruit whose pack gives none.
  public static let defaultInitialStock = 10

  /// The longest fruit or juice id a pack may use, in bytes.
  ///
  /// Ids are stored with every level and journal entry, so a pack must not be able to
  /// make them megabytes long.
  public static let maximumIDLength = 128
}

// MARK: - Fruit.ID conformances

extension Fruit.ID: ExpressibleByStringLiteral {
  /// Creates an id from a literal in source code.
  ///
  /// - Precondition: The literal follows the id rule of `init(validating:)`; text
  ///   from outside the program goes through `init(validating:)` instead.
  public init(stringLiteral value: String) {
    do {
      try self.init(validating: value)
    } catch {
      preconditionFailure("invalid fruit id literal: \(error)")
    }
  }
}

extension Fruit.ID: CustomStringConvertible {
  public var description: String { rawValue }
}

extension Fruit.ID: Comparable {
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Fruit.ID: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      try self.init(validating: try container.decode(String.self))
    } catch let error as IdentifierError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
