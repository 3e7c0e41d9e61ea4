/// A juice on the menu: an identifier and a recipe.
///
/// The display name comes from the string catalog under the key `juice.<id>`.
public struct Juice: Hashable, Sendable, Identifiable {
  /// The juice's stable identifier, such as `strawberry-banana-juice`.
  public struct ID: Hashable, Sendable {
    /// The raw identifier as written in the pack.
    public let rawValue: String

    /// Creates an identifier from its raw text.
    public init(_ rawValue: String) {
      self.rawValue = rawValue
    }
  }

  /// The juice's identifier.
  public let id: ID
  /// The fruits one juice takes, in the order the pack lists them.
  public let ingredients: [Ingredient]
  /// Where the juice sits in the catalog that loaded it, for constant-time lookup.
  @usableFromInline let position: CatalogPosition?

  /// Creates a juice that belongs to no catalog.
  ///
  /// - Parameters:
  ///   - id: The juice's identifier.
  ///   - ingredients: The recipe, in display order.
  public init(id: ID, ingredients: [Ingredient]) {
    self.init(id: id, ingredients: ingredients, position: nil)
  }

  init(id: ID, ingredients: [Ingredient], position: CatalogPosition?) {
    self.id = id
    self.ingredients = ingredients
    self.position = position
  }

  public static func == (lhs: Juice, rhs: Juice) -> Bool {
    lhs.id == rhs.id && lhs.ingredients == rhs.ingredients
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(ingredients)
  }
}

/// A juice's index in the catalog that created it, tagged with that catalog's serial number.
@usableFromInline
struct CatalogPosition: Sendable {
  @usableFromInline let catalog: Int
  @usableFromInline let index: Int
}

// MARK: - Juice.ID conformances

extension Juice.ID: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension Juice.ID: CustomStringConvertible {
  public var description: String { rawValue }
}

extension Juice.ID: Comparable {
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Juice.ID: Codable {
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
